import { useQuery } from '@tanstack/react-query'
import { meQuery } from './me'
import { effectiveAccess, usePreview } from './preview'

/**
 * Whether the user holds a permission (admins hold all), or the previewed role would. Only
 * for showing or hiding controls: the server decides.
 */
export function useCan(permission: string): boolean {
  const { data } = useQuery(meQuery)
  const preview = usePreview()
  if (!data) return false
  const { roles, permissions } = effectiveAccess(data, preview)
  return roles.includes('admin') || permissions.includes(permission)
}
