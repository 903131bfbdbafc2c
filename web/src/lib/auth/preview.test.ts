import { describe, expect, it } from 'vitest'
import { effectiveAccess } from './preview'

describe('effectiveAccess', () => {
  const me = { roles: ['admin'], permissions: ['manage user'] }
  it('is the user’s own access without a preview', () => {
    expect(effectiveAccess(me, null)).toEqual({ roles: ['admin'], permissions: ['manage user'] })
  })
  it('is only the previewed role’s access during a preview', () => {
    expect(effectiveAccess(me, { role: 'receptionist', permissions: ['view patient'], userId: 1 })).toEqual({ roles: ['receptionist'], permissions: ['view patient'] })
  })
})
