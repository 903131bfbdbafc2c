import { fileOf, saveSignature, SIGNATURE_OPTIONS } from './signature'

const pad = (empty: boolean) => ({ isEmpty: () => empty, toDataURL: (type = 'image/png', q?: number) => `data:${type};q=${q}` })

describe('signature saving (spec §5)', () => {
  it('saves PNG, JPEG and SVG', () => {
    expect(saveSignature(pad(false))).toEqual({ isEmpty: false, data: 'data:image/png;q=0.92' })
    expect(saveSignature(pad(false), 'image/jpeg').data).toBe('data:image/jpeg;q=0.92')
    expect(saveSignature(pad(false), 'image/svg+xml').data).toMatch(/^data:image\/svg\+xml/)
  })
  it('refuses any other type', () => {
    expect(() => saveSignature(pad(false), 'image/gif')).toThrow(/not image\/gif/)
    expect(() => saveSignature(pad(true), 'application/pdf')).toThrow()
  })
  it('reports an empty pad', () => {
    expect(saveSignature(pad(true))).toEqual({ isEmpty: true, data: '' })
  })
  it('uses the spec settings', () => {
    expect(SIGNATURE_OPTIONS).toEqual({ minWidth: 0.5, maxWidth: 2.5, dotSize: 1.5, throttle: 16, minDistance: 5, velocityFilterWeight: 0.7 })
  })
})

describe('fileOf', () => {
  it('turns the pad\'s data URL into a file of its type and bytes', async () => {
    const f = fileOf('data:image/png;base64,iVBORw0KGgo=', 'signature.png')
    expect(f.name).toBe('signature.png')
    expect(f.type).toBe('image/png')
    expect([...new Uint8Array(await f.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  })
})
