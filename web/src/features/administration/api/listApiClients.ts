import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'
import type { ApiClient } from './types'

/** The backend clients (SMART Backend Services), newest first. */
export const listApiClients = () => get<{ data: ApiClient[] }>('/api-clients')

export const apiClientsQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'clients'], queryFn: listApiClients })

export const useApiClients = () => useQuery(apiClientsQuery())
