import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { BillsReport, CashUp, Owing, Revenue } from './types'

// Under the appointments key too: a payment anywhere refreshes the open reports live.
const reportsKey = [...appointmentsKey, 'reports'] as const

export const useCashUp = (day: string) => useQuery(queryOptions({ queryKey: [...reportsKey, 'cash-up', day], queryFn: () => get<CashUp>('/reports/cash-up', { day }) }))

export const useBillsReport = (from: string, to: string, page: number, perPage: number) =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'bills', from, to, page, perPage], queryFn: () => get<BillsReport>('/reports/bills', { from, to, page, per_page: perPage }) }))

export const useRevenue = (from: string, to: string, by: 'service' | 'doctor') =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'revenue', from, to, by], queryFn: () => get<Revenue>('/reports/revenue', { from, to, by }) }))

export const useOutstanding = () => useQuery(queryOptions({ queryKey: [...reportsKey, 'outstanding'], queryFn: () => get<{ data: Owing[] }>('/reports/outstanding') }))

/** A report's CSV file (audited by the server). */
export const csvHref = (report: string, params: Record<string, string>) => `/api/reports/${report}?${new URLSearchParams({ ...params, format: 'csv' }).toString()}`
