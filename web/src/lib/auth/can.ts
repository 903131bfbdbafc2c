import { useQuery } from '@tanstack/react-query'
import { meQuery } from './me'

/** Whether the logged-in user holds a permission (admins hold all). Only for showing or hiding controls: the server decides. */
export function useCan(permission: string): boolean {
  const { data } = useQuery(meQuery)
  return Boolean(data && (data.roles.includes('admin') || data.permissions.includes(permission)))
}
