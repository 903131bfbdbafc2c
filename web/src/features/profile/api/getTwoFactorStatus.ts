import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { profileKey } from '../../../lib/queryKeys'
import type { TwoFactorStatus } from './types'

export const getTwoFactorStatus = () => get<TwoFactorStatus>('/profile/two-factor')

export const twoFactorStatusQuery = () => queryOptions({ queryKey: [...profileKey, 'two-factor'], queryFn: getTwoFactorStatus })

export const useTwoFactorStatus = () => useQuery(twoFactorStatusQuery())
