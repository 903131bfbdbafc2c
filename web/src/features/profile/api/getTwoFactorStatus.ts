import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { meQuery } from '../../../lib/auth/me'
import { apiTokensKey, profileKey } from '../../../lib/queryKeys'
import type { TwoFactorStatus } from './types'

export const getTwoFactorStatus = () => get<TwoFactorStatus>('/profile/two-factor')

export const twoFactorStatusQuery = () => queryOptions({ queryKey: [...profileKey, 'two-factor'], queryFn: getTwoFactorStatus })

export const useTwoFactorStatus = () => useQuery(twoFactorStatusQuery())

/** A second factor set up or turned off ends the account's API tokens: the status, the signed-in user and the tokens read again. */
export function useRefreshTwoFactor() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery().queryKey }),
      queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: apiTokensKey }),
    ])
}
