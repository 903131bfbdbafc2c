import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

export type OrderCharges = ResponseBody<'/api/appointments/{id}/bill/orders', 'get', 200>

/** A visit's lab orders beside its bill: ordered, charged, and what the desk should know of the rest. */
export const visitOrderChargesQuery = (appointmentId: number) =>
  queryOptions({ queryKey: [...billsKey, 'visit-orders', appointmentId], queryFn: () => get<OrderCharges>(`/appointments/${appointmentId}/bill/orders`) })

export const useVisitOrderCharges = (appointmentId: number) => useQuery(visitOrderChargesQuery(appointmentId))
