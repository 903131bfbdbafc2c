import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder, List } from './types'

/** The orders whose results are overdue. */
export const useOverdue = () => useQuery({ queryKey: [...resultsKey, 'overdue'], queryFn: () => get<List<LabOrder>>('/lab-orders/overdue').then((l) => l.data) })
