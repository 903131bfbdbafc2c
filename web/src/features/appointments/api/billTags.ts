import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

export type BillTag = ResponseBody<'/api/bill-tags', 'get'>['data'][number]

/**
 * The bills of the queue's appointments, by appointment: what the front desk's "to pay" and
 * "paid" tags show. Under the bills key, so a charge or payment anywhere (announced on the bills channel) re-reads them.
 */
export function useBillTags(ids: number[], enabled: boolean) {
  return useQuery({
    queryKey: [...billsKey, 'tags', ids],
    queryFn: async () => new Map((await get<{ data: BillTag[] }>('/bill-tags', { appointments: ids.join(',') })).data.map((b) => [b.appointment_id, b])),
    enabled: enabled && ids.length > 0,
  })
}
