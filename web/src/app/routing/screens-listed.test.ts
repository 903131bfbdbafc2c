import { SCREENS } from '../../../e2e/screens'
import { resolveRoutes } from './resolve'
import { asyncRoutes, constantRoutes, notFoundRoute } from './table'

describe('the accessibility test', () => {
  it('visits every screen of the route table', () => {
    const screens = resolveRoutes([...constantRoutes, ...asyncRoutes, notFoundRoute])
      .filter((r) => r.component)
      .map((r) => r.fullPath)
    expect(SCREENS.map((s) => s.route).sort()).toEqual(screens.filter((p) => p !== '/login' && p !== '/auth-redirect').sort())
  })
})
