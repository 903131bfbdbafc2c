import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody, Schema } from '../../../lib/schema'

export type BillSummary = Schema<'BillSummary'>
export type BillList = ResponseBody<'/api/bills', 'get'>

export interface BillFilter {
  q?: string
  patient_id?: number
  status?: '' | 'draft' | 'unpaid' | 'paid' | 'void'
  from?: string
  to?: string
  page: number
  per_page: number
}

// Under the appointments key: a payment or a charge anywhere re-reads the open lists live.
const billListKey = [...billsKey, 'list'] as const

export const billListQuery = (f: BillFilter) =>
  queryOptions({
    queryKey: [...billListKey, f],
    queryFn: () => get<BillList>('/bills', Object.fromEntries(Object.entries(f).filter(([, v]) => v !== '' && v !== undefined)) as Record<string, string | number>),
    placeholderData: keepPreviousData,
  })

export const useBillList = (f: BillFilter) => useQuery(billListQuery(f))
