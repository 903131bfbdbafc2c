import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'
import type { TokenReach } from './types'

/** What a token of the caller's may be scoped to: the FHIR types and interactions their roles reach. */
export const getOwnTokenReach = () => get<TokenReach>('/profile/api-tokens/reach')

export const ownTokenReachQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'own-reach'], queryFn: getOwnTokenReach })

export const useOwnTokenReach = (enabled: boolean) => useQuery({ ...ownTokenReachQuery(), enabled })
