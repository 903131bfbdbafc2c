import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { reportsKey } from './reports'
import type { BillsReport } from './types'

export const useBillsReport = (from: string, to: string, page: number, perPage: number) =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'bills', from, to, page, perPage], queryFn: () => get<BillsReport>('/reports/bills', { from, to, page, per_page: perPage }) }))
