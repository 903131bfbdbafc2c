import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { servicesKey } from '../../../lib/queryKeys'
import type { FeeSettings } from './types'

/** The clinic currency (with its decimals) and the consultation fee of each appointment type. */
export const feeSettingsQuery = () => queryOptions({ queryKey: [...servicesKey, 'settings'], queryFn: () => get<FeeSettings>('/fees/settings') })

export const useFeeSettings = () => useQuery(feeSettingsQuery())
