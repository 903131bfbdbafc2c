import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { rolesKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'
import type { RolesBody } from './types'

export const listRoles = () => get<RolesBody>('/roles')

export const rolesQuery = () => queryOptions({ queryKey: rolesKey, queryFn: listRoles, refetchOnWindowFocus: false })

/** The roles with their matrix's version (the roles screen). */
export const useRolesMatrix = () => useQuery(rolesQuery())

/** The roles alone (the account form's choice). */
export const useRoles = () => useQuery({ ...rolesQuery(), select: (b) => b.data })

/** The roles read again (after a change to one). */
export const useRefreshRoles = () => useRefresh(rolesKey)
