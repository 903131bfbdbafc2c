import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { reportsKey } from './reports'
import type { Revenue } from './types'

export const useRevenue = (from: string, to: string, by: 'service' | 'doctor') =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'revenue', from, to, by], queryFn: () => get<Revenue>('/reports/revenue', { from, to, by }) }))
