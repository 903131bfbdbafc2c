import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

export type BillTag = ResponseBody<'/api/bill-tags', 'get'>['data'][number]

/**
 * The bills of the queue's appointments, by appointment: what the front desk's "to pay" and
 * "paid" tags show. Under the appointments key, so a charge or payment anywhere re-reads them.
 */
export function useBillTags(ids: number[], enabled: boolean) {
  return useQuery({
    queryKey: [...appointmentsKey, 'bill-tags', ids],
    queryFn: async () => new Map((await get<{ data: BillTag[] }>('/bill-tags', { appointments: ids.join(',') })).data.map((b) => [b.appointment_id, b])),
    enabled: enabled && ids.length > 0,
  })
}
