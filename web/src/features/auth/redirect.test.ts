import { safeRedirect } from './redirect'

describe('safeRedirect', () => {
  it('keeps paths of this site', () => {
    expect(safeRedirect('/masterfile/patients?page=2')).toBe('/masterfile/patients?page=2')
  })
  it('refuses other sites and empty values', () => {
    for (const bad of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)']) {
      expect(safeRedirect(bad)).toBe('/')
    }
  })
})
