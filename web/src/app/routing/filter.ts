import type { AppRoute } from './types'

export const ADMIN_ROLE = 'admin'

/**
 * Whether a user may see a route (spec §6): admins see every route; anyone else sees a route
 * with no role or permission restriction, or one whose roles or permissions they hold
 * (either match suffices).
 */
export function canAccess(route: AppRoute, roles: readonly string[], permissions: readonly string[]): boolean {
  const meta = route.meta
  const restricted = (meta?.roles?.length ?? 0) > 0 || (meta?.permissions?.length ?? 0) > 0
  if (!restricted || roles.includes(ADMIN_ROLE)) return true
  return Boolean(meta?.roles?.some((r) => roles.includes(r)) || meta?.permissions?.some((p) => permissions.includes(p)))
}

/** The routes a user may see, children filtered the same way. */
export function filterRoutes(routes: readonly AppRoute[], roles: readonly string[], permissions: readonly string[]): AppRoute[] {
  return routes
    .filter((r) => canAccess(r, roles, permissions))
    .map((r) => (r.children ? { ...r, children: filterRoutes(r.children, roles, permissions) } : r))
}

/** Joins a child path onto its parent's. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child
  return `${parent.replace(/\/$/, '')}/${child}`
}
