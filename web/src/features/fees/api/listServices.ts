import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { servicesKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'
import type { Service } from './types'

/** The whole price list, withdrawn services too (all=1). */
export const listServices = () => get<{ data: Service[] }>('/services', { all: 1 })

export const servicesQuery = () => queryOptions({ queryKey: [...servicesKey, 'all'], queryFn: listServices })

export const useServices = () => useQuery(servicesQuery())

/** The price list and the fee settings (under the same key) read again. */
export const useRefreshServices = () => useRefresh(servicesKey)
