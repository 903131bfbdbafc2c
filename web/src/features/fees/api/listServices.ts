import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { servicesKey } from '../../../lib/queryKeys'
import type { Service } from './types'

/** The whole price list, withdrawn services too (all=1). */
export const listServices = () => get<{ data: Service[] }>('/services', { all: 1 })

export const servicesQuery = () => queryOptions({ queryKey: [...servicesKey, 'all'], queryFn: listServices })

export const useServices = () => useQuery(servicesQuery())
