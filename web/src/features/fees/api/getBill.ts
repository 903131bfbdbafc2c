import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'
import { useRefresh } from '../../../lib/write'
import type { Bill } from './types'

// Bills live under the appointments key: every write on one announces an appointment change,
// so the live channel refreshes whoever has the bill (or the queue's tags) open.

/** A bill with its lines and payments. */
export const billQuery = (id: number) => queryOptions({ queryKey: [...billsKey, 'bill', id], queryFn: () => get<Bill>(`/bills/${id}`) })

export const useBill = (id: number) => useQuery(billQuery(id))

/** A visit's bill in force; null while it has none (the first charge writes it). */
export const visitBillQuery = (appointmentId: number) =>
  queryOptions({
    queryKey: [...billsKey, 'visit-bill', appointmentId],
    queryFn: async () => {
      try {
        return await get<Bill>(`/appointments/${appointmentId}/bill`, undefined, { silent: true })
      } catch (e) {
        if (e instanceof ApiError && e.code === 'billing.no_bill') return null
        throw e
      }
    },
  })

export const useVisitBill = (appointmentId: number) => useQuery(visitBillQuery(appointmentId))

export type OrderCharges = ResponseBody<'/api/appointments/{id}/bill/orders', 'get', 200>

/** A visit's lab orders beside its bill: ordered, charged, and what the desk should know of the rest. */
export const visitOrderChargesQuery = (appointmentId: number) =>
  queryOptions({ queryKey: [...billsKey, 'visit-orders', appointmentId], queryFn: () => get<OrderCharges>(`/appointments/${appointmentId}/bill/orders`) })

export const useVisitOrderCharges = (appointmentId: number) => useQuery(visitOrderChargesQuery(appointmentId))

/** Every view of bills (and the reports, under the same key) reads again. */
export const useRefreshBills = () => useRefresh(billsKey)

/** A write answered the bill as it now is: shown at once where it is read, and every other view of bills read again. */
export function useBillChanged() {
  const queryClient = useQueryClient()
  return (b: Bill) => {
    queryClient.setQueryData(billQuery(b.id).queryKey, b)
    if (b.appointment_id) queryClient.setQueryData(visitBillQuery(b.appointment_id).queryKey, b.status === 'void' ? null : b)
    void queryClient.invalidateQueries({ queryKey: billsKey })
  }
}
