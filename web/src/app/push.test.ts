// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { connectionOptions } from './push'

describe('connectionOptions', () => {
  it('connects to this origin when the server names no host (the built-in endpoint)', () => {
    const o = connectionOptions({ key: 'k' })
    expect(o).toMatchObject({ wsHost: location.hostname, forceTLS: location.protocol === 'https:' })
    expect(o).toHaveProperty('enabledTransports', ['ws', 'wss'])
  })

  it('connects to a hosted cluster by name, always over TLS', () => {
    expect(connectionOptions({ key: 'k', cluster: 'eu', tls: true })).toEqual({ cluster: 'eu', forceTLS: true, enabledTransports: ['ws', 'wss'] })
  })

  it('connects to a self-hosted provider at its host and port', () => {
    expect(connectionOptions({ key: 'k', host: 'push.clinic.example', port: 6001, tls: false })).toMatchObject({
      wsHost: 'push.clinic.example',
      wsPort: 6001,
      wssPort: 6001,
      forceTLS: false,
    })
  })
})
