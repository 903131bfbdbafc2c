import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'
import { useRefresh } from '../../../lib/write'
import type { BillsReport, CashUp, Revenue } from './types'

// Under the appointments key too: a payment anywhere refreshes the open reports live.
export const reportsKey = [...billsKey, 'reports'] as const

export const useCashUp = (day: string) => useQuery(queryOptions({ queryKey: [...reportsKey, 'cash-up', day], queryFn: () => get<CashUp>('/reports/cash-up', { day }) }))

export const useBillsReport = (from: string, to: string, page: number, perPage: number) =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'bills', from, to, page, perPage], queryFn: () => get<BillsReport>('/reports/bills', { from, to, page, per_page: perPage }) }))

export const useRevenue = (from: string, to: string, by: 'service' | 'doctor') =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'revenue', from, to, by], queryFn: () => get<Revenue>('/reports/revenue', { from, to, by }) }))

type Owed = ResponseBody<'/api/reports/outstanding', 'get'>

export const useOutstanding = (page: number, perPage: number) =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'outstanding', page, perPage], queryFn: () => get<Owed>('/reports/outstanding', { page, per_page: perPage }) }))

/** A report's CSV file (audited by the server). */
export const csvHref = (report: string, params: Record<string, string>) => `/api/reports/${report}?${new URLSearchParams({ ...params, format: 'csv' }).toString()}`

/** Every report (the cash-up's drawers among them) reads again. */
export const useRefreshReports = () => useRefresh(reportsKey)
