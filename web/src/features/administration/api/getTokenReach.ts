import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'
import type { TokenReach } from './types'

/** What a token for account userId may be scoped to: the FHIR types and interactions its roles reach. */
export const getTokenReach = (userId: number) => get<TokenReach>('/api-tokens/reach', { user_id: userId })

export const tokenReachQuery = (userId: number) => queryOptions({ queryKey: [...apiTokensKey, 'reach', userId], queryFn: () => getTokenReach(userId) })

export const useTokenReach = (userId?: number) => useQuery({ ...tokenReachQuery(userId ?? 0), enabled: !!userId })
