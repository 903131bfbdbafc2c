// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API_TIMEOUT_MS, ApiError, get, NoAnswer, onApiError, queryString, send, setSocketId, setTransport, toApiError } from './api'

// Other files' screens answer from fixtures in the same worker: this one asks fetch.
beforeEach(() => setTransport(undefined))

afterEach(() => {
  vi.unstubAllGlobals()
  setSocketId(undefined)
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT'
})

/** fetch answering one call; returns the stub, whose calls show what was sent. */
function answer(status: number, body: string) {
  const f = vi.fn(async (_url: string, _init: RequestInit) => new Response(body || null, { status }))
  vi.stubGlobal('fetch', f)
  return f
}

describe('api client', () => {
  it('asks /api with the cookies, the markers the server wants and a 10 s time-out', async () => {
    document.cookie = 'XSRF-TOKEN=a%2Bb'
    setSocketId('s1')
    const f = answer(200, '{"ok":true}')
    expect(await send('post', '/patients', { name: 'A' })).toEqual({ ok: true })
    const [url, init] = f.mock.calls[0]
    expect(url).toBe('/api/patients')
    expect(init.credentials).toBe('include')
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"name":"A"}')
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', 'X-XSRF-TOKEN': 'a+b', 'X-Socket-ID': 's1', 'Content-Type': 'application/json' })
    expect(init.signal).toBeInstanceOf(AbortSignal)
    expect(API_TIMEOUT_MS).toBe(10000)
  })

  it('leaves empty query values out and sends a form as it is', async () => {
    expect(queryString({ q: 'ann lee', page: 2, archived: undefined, x: null })).toBe('?q=ann+lee&page=2')
    expect(queryString({})).toBe('')
    const f = answer(204, '')
    const fd = new FormData()
    fd.append('file', 'x')
    expect(await send('put', '/profile/avatar', fd)).toBeUndefined()
    expect(f.mock.calls[0][1].body).toBe(fd)
    expect(f.mock.calls[0][1].headers).not.toHaveProperty('Content-Type')
  })

  it('turns a refusal into an ApiError the app hears, quiet when the caller shows it', async () => {
    const heard: ApiError[] = []
    const off = onApiError((e) => heard.push(e))
    answer(422, '{"error":"Check the fields.","code":"validation.failed","errors":{"username":["Required."]}}')
    const e = await get('/users', { q: 'x' }, { silent: true }).catch((x: unknown) => x)
    off()
    expect(e).toBeInstanceOf(ApiError)
    expect((e as ApiError).display).toBe('Required.')
    expect((e as ApiError).status).toBe(422)
    expect((e as ApiError).silent).toBe(true)
    expect(heard).toEqual([e])
  })

  it('shows the errors field first, then error, then a generic message', () => {
    expect(toApiError({ status: 409, data: { error: 'Someone else changed this.', code: 'error.conflict' } }).display).toBe('Someone else changed this.')
    expect(toApiError({ status: 500, data: 'not json' }, 'Generic').display).toBe('Generic')
    expect(toApiError({ status: 500, data: 'not json' }).code).toBe('error.unknown')
    expect(toApiError(new NoAnswer(true)).code).toBe('error.timeout')
    expect(toApiError(new NoAnswer(false)).code).toBe('error.network')
  })

  it('says the network failed when no answer came', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))))
    const e = (await get('/user').catch((x: unknown) => x)) as ApiError
    expect(e.code).toBe('error.network')
    expect(e.status).toBe(0)
  })
})
