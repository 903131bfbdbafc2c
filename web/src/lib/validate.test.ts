import { isExternal, validate, validEmail } from './validate'

describe('isExternal', () => {
  it.each(['http://a.b', 'https://a.b/c', 'mailto:x@y.z', 'tel:+84123'])('%s is external', (s) => expect(isExternal(s)).toBe(true))
  it.each(['/masterfile', 'ftp://a.b', 'javascript:alert(1)', 'httpx'])('%s is not', (s) => expect(isExternal(s)).toBe(false))
})

describe('validEmail', () => {
  it.each(['a@b.co', 'first.last@clinic.example.vn', '"odd name"@x.org', 'u@[192.168.0.1]'])('accepts %s', (s) => expect(validEmail(s)).toBe(true))
  it.each(['a@b', 'a@b.c', 'a.@b.com', '@b.com', 'a b@c.com', 'a@b.c0m'])('refuses %s', (s) => expect(validEmail(s)).toBe(false))
  it('refuses 255 characters or more', () => {
    expect(validEmail('a'.repeat(243) + '@example.com')).toBe(false)
    expect(validEmail('a'.repeat(242) + '@example.com')).toBe(true)
  })
})

describe('schema validator messages (spec §5)', () => {
  it('uses the standard messages', async () => {
    const errors = await validate(
      { name: { required: true }, role: { type: 'enum', enum: ['admin', 'doctor'] }, age: { type: 'number', min: 0, max: 150 } },
      { role: 'janitor', age: 200 },
    )
    expect(errors.map((e) => e.message)).toEqual(['name is required', 'role must be one of admin, doctor', 'age must be between 0 and 150'])
  })
  it('passes valid values', async () => {
    expect(await validate({ email: { type: 'email' } }, { email: 'a@b.co' })).toEqual([])
  })
})
