// The API client, on the browser's fetch: base /api, 10 s time-out, cookies, the
// XMLHttpRequest marker and the CSRF header (the XSRF-TOKEN cookie echoed as X-XSRF-TOKEN).
// Successful calls resolve to the response body; failures reject with an ApiError. It shows
// nothing itself: the app subscribes with onApiError and decides how to tell the user.

export const API_BASE = '/api'
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

/** One call as the transport sees it: the path without /api, the query, the body. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  params?: Record<string, unknown>
  body?: unknown
  timeout: number
}

/** What came back: the status and the body (parsed JSON, else the text, else undefined). */
export interface ApiResponse {
  status: number
  data: unknown
}

/** Why no answer came: the time-out passed, or the network failed. */
export class NoAnswer extends Error {
  readonly timedOut: boolean
  constructor(timedOut: boolean) {
    super(timedOut ? 'timeout' : 'network')
    this.timedOut = timedOut
  }
}

/** The query string: empty values left out, as a form would. */
export function queryString(params: Record<string, unknown> = {}): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue
    if (Array.isArray(v)) v.forEach((x) => q.append(`${k}[]`, String(x)))
    else q.append(k, v instanceof Date ? v.toISOString() : String(v))
  }
  const s = q.toString()
  return s ? `?${s}` : ''
}

// Served over HTTPS the server names its cookies with the __Host- prefix (bound to this host,
// Secure, every path), so that no sibling domain can plant one.
const xsrfCookie = () => (location.protocol === 'https:' ? '__Host-XSRF-TOKEN' : 'XSRF-TOKEN')
const cookie = (name: string) => document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`))?.[1]

const fetchTransport = async ({ method, path, params, body, timeout }: ApiRequest): Promise<ApiResponse> => {
  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*', 'X-Requested-With': 'XMLHttpRequest' }
  const token = cookie(xsrfCookie())
  if (token) headers['X-XSRF-TOKEN'] = decodeURIComponent(token)
  if (socketId) headers['X-Socket-ID'] = socketId
  const form = typeof FormData !== 'undefined' && body instanceof FormData
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(`${API_BASE}${path}${queryString(params)}`, {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    })
  } catch (e) {
    throw new NoAnswer(e instanceof DOMException && e.name === 'TimeoutError')
  }
  const text = await res.text()
  let data: unknown = text || undefined
  try {
    data = text ? JSON.parse(text) : undefined
  } catch {
    // Not JSON: the text as it came.
  }
  return { status: res.status, data }
}

let transport = fetchTransport
/** Component tests answer calls from fixtures (test/render.tsx); undefined restores fetch. */
export function setTransport(t: ((req: ApiRequest) => Promise<ApiResponse>) | undefined) {
  transport = t ?? fetchTransport
}

/** The ApiError for a failed answer (or none). `genericMessage` is used when the server said nothing. */
export function toApiError(failure: ApiResponse | NoAnswer, genericMessage = 'Request failed', silent = false): ApiError {
  if (failure instanceof NoAnswer) return new ApiError(0, genericMessage, failure.timedOut ? 'error.timeout' : 'error.network', {}, silent)
  const body = (typeof failure.data === 'object' && failure.data ? failure.data : {}) as ErrorBody
  return new ApiError(failure.status, body.error ?? genericMessage, body.code ?? 'error.unknown', body.errors ?? {}, silent)
}

async function request<T>(req: ApiRequest, silent: boolean): Promise<T> {
  let error: ApiError
  try {
    const res = await transport(req)
    if (res.status >= 200 && res.status < 300) return res.data as T
    error = toApiError(res, '', silent)
  } catch (e) {
    error = e instanceof ApiError ? e : e instanceof NoAnswer ? toApiError(e, '', silent) : new ApiError(0, '', 'error.unknown', {}, silent)
  }
  for (const listener of listeners) listener(error)
  throw error
}

interface Options {
  /** The caller shows a failure itself (e.g. inline in a form): no error toast. */
  silent?: boolean
  /** Longer than the usual 10 s, for a call that takes long by nature (a backup). */
  timeout?: number
}

/** GET path, resolving to the body. */
export function get<T>(path: string, params?: Record<string, unknown>, options: Options = {}): Promise<T> {
  return request<T>({ method: 'GET', path, params, timeout: options.timeout ?? API_TIMEOUT_MS }, Boolean(options.silent))
}

/** Sends body with method to path, resolving to the response body. */
export function send<T>(method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown, options: Options = {}): Promise<T> {
  const m = method.toUpperCase() as ApiRequest['method']
  return request<T>({ method: m, path, body, timeout: options.timeout ?? API_TIMEOUT_MS }, Boolean(options.silent))
}
