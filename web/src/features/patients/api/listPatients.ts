import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { PatientSummary } from './types'

export interface PatientPage {
  data: PatientSummary[]
  meta: { total: number; total_exact: boolean; page: number; per_page: number }
}

export interface ListParams {
  q: string
  page: number
  per_page: number
  archived: boolean
}

export const listPatients = (p: ListParams) =>
  get<PatientPage>('/patients', { q: p.q || undefined, page: p.page, per_page: p.per_page, archived: p.archived ? 1 : undefined })

export function usePatients(p: ListParams) {
  return useQuery({ queryKey: ['patients', 'list', p], queryFn: () => listPatients(p), placeholderData: keepPreviousData })
}
