// Role preview (/permission/page): an administrator sees menus, routes and controls as a
// role would. It lives in this tab's memory only and grants nothing: every request still
// carries the administrator's own session, and the server decides.
import { useSyncExternalStore } from 'react'

export interface Preview {
  role: string
  permissions: string[]
}

let current: Preview | null = null
const listeners = new Set<() => void>()

export function startPreview(p: Preview) {
  current = { role: p.role, permissions: [...p.permissions] }
  listeners.forEach((l) => l())
}

export function stopPreview() {
  current = null
  listeners.forEach((l) => l())
}

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The role being previewed, or null. */
export function usePreview(): Preview | null {
  return useSyncExternalStore(subscribe, () => current)
}

/** The roles and permissions the interface is drawn for: the previewed role's, or the user's own. */
export function effectiveAccess(me: { roles: string[]; permissions: string[] }, preview: Preview | null) {
  return preview ? { roles: [preview.role], permissions: preview.permissions } : { roles: me.roles, permissions: me.permissions }
}
