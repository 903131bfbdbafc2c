import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder, List } from './types'

/** A visit's lab orders. */
export const visitOrdersQuery = (appointmentId: number) =>
  queryOptions({ queryKey: [...resultsKey, 'visit', appointmentId], queryFn: () => get<List<LabOrder>>(`/appointments/${appointmentId}/orders`).then((l) => l.data) })
export const useVisitOrders = (appointmentId: number, enabled = true) => useQuery({ ...visitOrdersQuery(appointmentId), enabled })
