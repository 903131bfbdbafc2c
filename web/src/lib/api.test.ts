import { AxiosError, AxiosHeaders } from 'axios'
import { API_TIMEOUT_MS, ApiError, http, toApiError } from './api'

function axiosError(status: number, data: unknown) {
  const headers = new AxiosHeaders()
  return new AxiosError('fail', 'ERR_BAD_RESPONSE', { headers }, null, { status, statusText: '', headers, config: { headers }, data })
}

describe('api client', () => {
  it('is configured as the spec says', () => {
    expect(http.defaults.baseURL).toBe('/api')
    expect(http.defaults.timeout).toBe(API_TIMEOUT_MS)
    expect(API_TIMEOUT_MS).toBe(10000)
    expect(http.defaults.withCredentials).toBe(true)
    expect(http.defaults.headers['X-Requested-With']).toBe('XMLHttpRequest')
  })

  it('shows the errors field first, then error, then a generic message', () => {
    const withFields = toApiError(axiosError(422, { error: 'Check the fields.', code: 'validation.failed', errors: { username: ['Required.'] } }))
    expect(withFields).toBeInstanceOf(ApiError)
    expect(withFields.display).toBe('Required.')
    expect(withFields.status).toBe(422)

    const plain = toApiError(axiosError(409, { error: 'Someone else changed this.', code: 'error.conflict' }))
    expect(plain.display).toBe('Someone else changed this.')

    const bare = toApiError(axiosError(500, 'not json'), 'Generic')
    expect(bare.display).toBe('Generic')
  })
})
