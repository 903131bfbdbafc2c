import { matchPath, useLocation } from 'react-router'
import { NotFoundResult } from './NotFoundResult'
import { resolveRoutes } from './routing/resolve'
import { asyncRoutes, constantRoutes } from './routing/table'

/**
 * Every screen's address, whether or not this user may open it: the user's own routes match
 * before this page does, so an address among these is one their roles or permissions keep
 * them from (the patients list is a constant route gated by a permission, as the
 * administration's are asynchronous ones).
 */
const gatedPaths = resolveRoutes([...constantRoutes, ...asyncRoutes])
  .filter((r) => r.component)
  .map((r) => r.fullPath)

/**
 * An address outside the user's routes: a screen that exists but needs a role or permission
 * the user lacks says so, and who can give it; anything else is "not found".
 */
export default function NotFoundPage() {
  const { pathname } = useLocation()
  return <NotFoundResult forbidden={gatedPaths.some((p) => matchPath(p, pathname))} />
}
