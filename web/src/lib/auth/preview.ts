// Role preview (/permission/page): an administrator sees menus, routes and controls as a
// role would. It grants nothing: every request still carries the administrator's own
// session, and the server decides. It lasts for the browser tab's life (sessionStorage), so a
// reload or a typed address keeps it, with its banner; it belongs to the account that
// started it and ends with a logout.
import { useQuery } from '@tanstack/react-query'
import { createStore } from '../store'
import { meQuery } from './me'

export interface Preview {
  role: string
  permissions: string[]
  /** The account that started it: another account in this tab does not inherit it. */
  userId: number
}

const KEY = 'emr.rolePreview'

function read(): Preview | null {
  try {
    const p = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Preview | null
    return p && typeof p.role === 'string' && Array.isArray(p.permissions) && typeof p.userId === 'number' ? p : null
  } catch {
    return null
  }
}

const current = createStore<Preview | null>(read())

function set(p: Preview | null) {
  if (p) sessionStorage.setItem(KEY, JSON.stringify(p))
  else sessionStorage.removeItem(KEY)
  current.set(p)
}

export function startPreview(p: Preview) {
  set({ role: p.role, permissions: [...p.permissions], userId: p.userId })
}

export function stopPreview() {
  set(null)
}

/** The role being previewed by the logged-in account, or null. */
export function usePreview(): Preview | null {
  const preview = current.use()
  const me = useQuery({ ...meQuery, enabled: preview !== null })
  return preview && me.data?.id === preview.userId ? preview : null
}

/** The roles and permissions the interface is drawn for: the previewed role's, or the user's own. */
export function effectiveAccess(me: { roles: string[]; permissions: string[] }, preview: Preview | null) {
  return preview ? { roles: [preview.role], permissions: preview.permissions } : { roles: me.roles, permissions: me.permissions }
}
