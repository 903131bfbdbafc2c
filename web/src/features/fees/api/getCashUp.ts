import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { reportsKey } from './reports'
import type { CashUp } from './types'

export const useCashUp = (day: string) => useQuery(queryOptions({ queryKey: [...reportsKey, 'cash-up', day], queryFn: () => get<CashUp>('/reports/cash-up', { day }) }))
