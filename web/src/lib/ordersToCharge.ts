// One query of a day's lab orders the desk should act on (ADR 41), for the desk's list and the
// dashboard's figure alike: one cache key, one address. Under the bills key, so a payment or a
// charge anywhere refreshes both live.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from './api'
import { billsKey } from './queryKeys'
import type { ResponseBody } from './schema'

export type OrderToCharge = ResponseBody<'/api/bill-orders', 'get', 200>['data'][number]

/** The day's lab orders not charged, or cancelled and still charged. */
export const useOrdersToCharge = (day: string, enabled = true) =>
  useQuery({ ...queryOptions({ queryKey: [...billsKey, 'reports', 'orders-to-charge', day], queryFn: () => get<{ data: OrderToCharge[] }>('/bill-orders', { day }) }), enabled })
