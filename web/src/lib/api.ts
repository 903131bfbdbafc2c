// The API client: base /api, 10 s time-out, cookies, the XMLHttpRequest marker and the
// CSRF header (axios echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN). Successful calls resolve
// to the response body; failures reject with an ApiError. It shows nothing itself: the app
// subscribes with onApiError and decides how to tell the user.
import axios, { AxiosError } from 'axios'

declare module 'axios' {
  interface AxiosRequestConfig {
    /** The caller shows a failure itself (e.g. inline in a form): no error toast. */
    silent?: boolean
  }
}

export const API_TIMEOUT_MS = 10_000

/** A failed API call, with the server's message already in the user's language. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly fields: Record<string, string[]>
  /** The caller shows this error itself; the app's error toast stays quiet. */
  readonly silent: boolean

  constructor(status: number, message: string, code: string, fields: Record<string, string[]> = {}, silent = false) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
    this.silent = silent
  }

  /** The text to show: the field messages if any, else the message. */
  get display(): string {
    const fieldMessages = Object.values(this.fields).flat()
    return fieldMessages.length > 0 ? fieldMessages.join(' ') : this.message
  }
}

interface ErrorBody {
  error?: string
  code?: string
  errors?: Record<string, string[]>
}

type ErrorListener = (error: ApiError) => void
const listeners = new Set<ErrorListener>()

/** Subscribes to every failed API response; returns the unsubscribe function. */
export function onApiError(listener: ErrorListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

let socketId: string | undefined
/** Sets the push connection's socket id, sent as X-Socket-ID so we skip our own events. */
export function setSocketId(id: string | undefined) {
  socketId = id
}

export const http = axios.create({
  baseURL: '/api',
  timeout: API_TIMEOUT_MS,
  withCredentials: true,
  // Served over HTTPS the server names its cookies with the __Host- prefix (bound to this
  // host, Secure, every path), so that no sibling domain can plant one.
  xsrfCookieName: typeof location !== 'undefined' && location.protocol === 'https:' ? '__Host-XSRF-TOKEN' : 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  headers: { 'X-Requested-With': 'XMLHttpRequest' },
})

http.interceptors.request.use(
  (config) => {
    if (socketId) config.headers.set('X-Socket-ID', socketId)
    return config
  },
  (error: unknown) => {
    // A request that could not be prepared is only logged (spec §8).
    console.error(error)
    return Promise.reject(error)
  },
)

/** Turns any failure of a call into an ApiError. `genericMessage` is used when the server said nothing. */
export function toApiError(error: unknown, genericMessage = 'Request failed'): ApiError {
  if (error instanceof ApiError) return error
  if (error instanceof AxiosError) {
    const body = (error.response?.data ?? {}) as ErrorBody
    const status = error.response?.status ?? 0
    const code = body.code ?? (error.code === AxiosError.ECONNABORTED ? 'error.timeout' : status === 0 ? 'error.network' : 'error.unknown')
    return new ApiError(status, body.error ?? genericMessage, code, body.errors ?? {}, Boolean(error.config?.silent))
  }
  return new ApiError(0, genericMessage, 'error.unknown')
}

http.interceptors.response.use(
  (response) => response,
  (error: unknown) => {
    const apiError = toApiError(error, '')
    for (const listener of listeners) listener(apiError)
    return Promise.reject(apiError)
  },
)

/** GET path, resolving to the body. */
export async function get<T>(path: string, params?: Record<string, unknown>, options: { silent?: boolean } = {}): Promise<T> {
  return (await http.get<T>(path, { params, ...options })).data
}

/** Sends body with method to path, resolving to the response body. */
export async function send<T>(method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown, options: { silent?: boolean } = {}): Promise<T> {
  return (await http.request<T>({ method, url: path, data: body, ...options })).data
}
