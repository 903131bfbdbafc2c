import { asyncRoutes, constantRoutes } from './table'
import { canAccess, filterRoutes, joinPath } from './filter'
import type { AppRoute } from './types'

const paths = (routes: AppRoute[], parent = ''): string[] =>
  routes.flatMap((r) => [joinPath(parent || '/', r.path), ...paths(r.children ?? [], joinPath(parent || '/', r.path))])

describe('route filtering (spec §6)', () => {
  it('gives an admin every route', () => {
    expect(paths(filterRoutes(asyncRoutes, ['admin'], []))).toEqual(paths(asyncRoutes))
  })

  it('gives a doctor Forms and My Profile (roles "admin, doctor"), not administration', () => {
    const p = paths(filterRoutes(asyncRoutes, ['doctor'], ['view patient']))
    expect(p).toContain('/forms/blankPrescription')
    expect(p).toContain('/user-profile/user-profile')
    expect(p).not.toContain('/administrator')
    expect(p).not.toContain('/permission/page')
    // "What I can do" has no restriction (spec §2): every logged-in user opens it.
    expect(p).toContain('/permission/directive')
  })

  it('opens "What I can do" to a role with no permission at all, under a hidden parent', () => {
    const [permission] = filterRoutes(asyncRoutes, ['visitor'], []).filter((r) => r.path === '/permission')
    expect(permission.hidden).toBe(true)
    expect(permission.redirect).toBe('/permission/directive')
    expect(permission.children?.map((c) => c.path)).toEqual(['directive'])
  })

  it('lets a permission unlock a route without the role', () => {
    const p = paths(filterRoutes(asyncRoutes, ['receptionist'], ['view menu permission']))
    expect(p).toContain('/permission/directive') // no restriction of its own
    expect(p).not.toContain('/permission/page') // needs 'manage permission'
    expect(p).not.toContain('/forms')
  })

  it('filters children the same way', () => {
    const route: AppRoute = {
      path: '/x',
      children: [{ path: 'open' }, { path: 'locked', meta: { permissions: ['manage user'] } }, { path: 'mine', meta: { roles: ['nurse'] } }],
    }
    const [x] = filterRoutes([route], ['nurse'], [])
    expect(x.children?.map((c) => c.path)).toEqual(['open', 'mine'])
  })

  it('keeps unrestricted routes for everyone', () => {
    expect(canAccess({ path: '/a' }, [], [])).toBe(true)
    expect(canAccess({ path: '/a', meta: { roles: [], permissions: [] } }, [], [])).toBe(true)
    expect(canAccess({ path: '/a', meta: { roles: ['doctor'] } }, ['nurse'], ['manage user'])).toBe(false)
  })

  it('has every spec route for every logged-in user', () => {
    expect(paths(constantRoutes)).toEqual(
      expect.arrayContaining(['/', '/dashboard', '/masterfile', '/masterfile/patients', '/masterfile/patient_form/:id', '/masterfile/profile/:id/:pid',
        '/appointments', '/appointments/appointments', '/appointments/form/:id', '/profile', '/profile/edit']),
    )
  })
})
