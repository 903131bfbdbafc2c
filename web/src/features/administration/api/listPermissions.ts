import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { permissionsKey } from '../../../lib/queryKeys'

export const listPermissions = async () => (await get<{ data: string[] }>('/permissions')).data

export const permissionsQuery = () => queryOptions({ queryKey: permissionsKey, queryFn: listPermissions, staleTime: Infinity })

export const usePermissionCatalogue = () => useQuery(permissionsQuery())
