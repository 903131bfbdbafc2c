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

/**
 * The routes a user may see, children filtered the same way. A parent the user may not see
 * stays only for its children open to everyone (meta.everyone), hidden from the menu and
 * redirecting to the first of them.
 */
export function filterRoutes(routes: readonly AppRoute[], roles: readonly string[], permissions: readonly string[]): AppRoute[] {
  return routes.flatMap((r): AppRoute[] => {
    if (canAccess(r, roles, permissions)) return [r.children ? { ...r, children: filterRoutes(r.children, roles, permissions) } : r]
    const open = (r.children ?? []).filter((c) => c.meta?.everyone)
    if (open.length === 0) return []
    return [{ ...r, hidden: true, redirect: joinPath(r.path, open[0].path), children: open }]
  })
}

/** Joins a child path onto its parent's. */
export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child
  return `${parent.replace(/\/$/, '')}/${child}`
}
