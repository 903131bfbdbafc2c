import { joinPath } from './filter'
import type { AppRoute } from './types'

export interface Screen {
  title: string
  path: string
}

/**
 * Which screens each permission opens, and which only a role opens: a page is listed under the
 * permissions of its own meta, or else its parent's.
 */
export function screensOf(routes: readonly AppRoute[]): { byPermission: Record<string, Screen[]>; byRole: Record<string, Screen[]> } {
  const byPermission: Record<string, Screen[]> = {}
  const byRole: Record<string, Screen[]> = {}
  const walk = (list: readonly AppRoute[], parentPath: string, parent?: AppRoute) => {
    for (const r of list) {
      const path = joinPath(parentPath, r.path)
      if (r.component && r.meta?.title) {
        const screen = { title: r.meta.title, path }
        const perms = r.meta.permissions?.length ? r.meta.permissions : (parent?.meta?.permissions ?? [])
        const roles = r.meta.roles?.length ? r.meta.roles : (parent?.meta?.roles ?? [])
        for (const p of perms) (byPermission[p] ??= []).push(screen)
        if (!perms.length) for (const role of roles) (byRole[role] ??= []).push(screen)
      }
      if (r.children) walk(r.children, path, r)
    }
  }
  walk(routes, '/')
  return { byPermission, byRole }
}
