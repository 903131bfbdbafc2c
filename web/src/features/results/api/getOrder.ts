import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder } from './types'

/** One lab order, with its results and history. */
export const useOrder = (id: number) => useQuery({ queryKey: [...resultsKey, 'order', id], queryFn: () => get<LabOrder>(`/lab-orders/${id}`) })
