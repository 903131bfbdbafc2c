import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'
import type { ApiToken } from './types'

/** The caller's own API tokens, newest first (ended and expired ones for 30 days, with why). */
export const listOwnApiTokens = () => get<{ data: ApiToken[] }>('/profile/api-tokens')

export const ownApiTokensQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'own'], queryFn: listOwnApiTokens })

export const useOwnApiTokens = () => useQuery(ownApiTokensQuery())
