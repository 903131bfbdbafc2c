import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { profileKey } from '../../../lib/queryKeys'
import type { OwnTwoFactor } from './types'

/** The administrator's own second factor: making a token asks for its code when it is on. */
export const getOwnTwoFactor = () => get<OwnTwoFactor>('/profile/two-factor')

export const ownTwoFactorQuery = () => queryOptions({ queryKey: [...profileKey, 'two-factor'], queryFn: getOwnTwoFactor })

export const useOwnTwoFactor = () => useQuery(ownTwoFactorQuery())
