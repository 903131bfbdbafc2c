// Rendering a screen in a test (jsdom): the app's providers (query cache, router, antd's App,
// the light toasts, i18n in English) around it, and the API answered from a table of fixtures instead of the
// server — each fixture typed by the API's own schema where the test says so. A request no
// fixture answers fails with 404 and is listed in `unanswered`, so a test can show what a
// screen asked for.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { App as AntApp } from 'antd'
import type { ReactNode } from 'react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { setTransport, type ApiRequest } from '../lib/api'
import { meQueryKey, type Me } from '../lib/auth/me'
import { initI18n } from '../lib/i18n'
import { ToastProvider } from '../light/Toast'

/** Thrown by a fixture: the server's refusal, its status and body (a 409, a 422 with field messages). */
export class Refusal extends Error {
  readonly status: number
  readonly body: unknown
  constructor(status: number, body: unknown) {
    super(`HTTP ${status}`)
    this.status = status
    this.body = body
  }
}

/** A fixture: the body to answer, or a function of the request's query and body. */
export type Fixture = unknown | ((req: { params: Record<string, unknown>; body: unknown }) => unknown)

/** A user for the screen: a role's name and permissions. */
export function user(permissions: string[], roles: string[] = ['staff']): Me {
  return {
    id: 7,
    username: 'test',
    name: 'Test user',
    avatar: '',
    introduction: '',
    roles,
    permissions,
    must_change_password: false,
    must_enrol_two_factor: false,
    emergency: null,
  } as Me
}

interface Options {
  me: Me
  /** "GET /bills/1" → fixture; the path as the screen asks for it, without /api. */
  api: Record<string, Fixture>
  /** The route the screen is mounted at ("/fees/bills/:id") and the address shown. */
  route?: string
  at?: string
  /** Queries already read, as a screen before this one left them ([key, data]). */
  cache?: [readonly unknown[], unknown][]
}

export async function renderScreen(ui: ReactNode, { me, api, route = '/', at = '/', cache = [] }: Options) {
  await initI18n('en')
  const unanswered: string[] = []
  const sent: { method: string; path: string; body: unknown }[] = []
  setTransport(async ({ method, path, params, body }: ApiRequest) => {
    if (method !== 'GET') sent.push({ method, path, body })
    const key = `${method} ${path}`
    if (!(key in api)) {
      unanswered.push(key)
      return { status: 404, data: { error: `No fixture for ${key}` } }
    }
    const f = api[key]
    try {
      // A fixture may answer later (a promise): a screen's part whose data comes after the rest.
      const data = await (typeof f === 'function' ? (f as (r: { params: Record<string, unknown>; body: unknown }) => unknown)({ params: params ?? {}, body }) : f)
      return { status: 200, data }
    } catch (e) {
      if (e instanceof Refusal) return { status: e.status, data: e.body }
      throw e
    }
  })
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  client.setQueryData(meQueryKey, me)
  for (const [key, data] of cache) client.setQueryData(key, data)
  const view = render(
    <QueryClientProvider client={client}>
      <AntApp>
        <ToastProvider>
          <MemoryRouter initialEntries={[at]}>
            <Routes>
              <Route path={route} element={ui} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </AntApp>
    </QueryClientProvider>,
  )
  return { ...view, unanswered, sent, client }
}
