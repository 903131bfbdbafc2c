import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'
import type { ApiToken } from './types'

/** Every account's API tokens, newest first (revoked and expired ones for 30 days). */
export const listApiTokens = () => get<{ data: ApiToken[] }>('/api-tokens')

export const apiTokensQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'all'], queryFn: listApiTokens })

export const useApiTokens = () => useQuery(apiTokensQuery())
