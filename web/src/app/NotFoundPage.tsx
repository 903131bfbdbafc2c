import { matchPath, useLocation } from 'react-router'
import { NotFoundResult } from './NotFoundResult'
import { resolveRoutes } from './routing/resolve'
import { asyncRoutes } from './routing/table'

/** Every address a role or permission may open, whether or not this user holds it. */
const gatedPaths = resolveRoutes(asyncRoutes)
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
