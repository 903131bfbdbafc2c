import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'
import { visitBillQuery } from './getVisitBill'
import type { Bill } from './types'

// Bills live under the appointments key: every write on one announces an appointment change,
// so the live channel refreshes whoever has the bill (or the queue's tags) open.

/** A bill with its lines and payments. */
export const billQuery = (id: number) => queryOptions({ queryKey: [...billsKey, 'bill', id], queryFn: () => get<Bill>(`/bills/${id}`) })

export const useBill = (id: number) => useQuery(billQuery(id))

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
