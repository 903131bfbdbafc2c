import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
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

/** Every page of the register sits under this key: a save or an archive re-reads them. */
export const patientListsKey = [...patientsKey, 'list'] as const

export const patientsQuery = (p: ListParams) => queryOptions({ queryKey: [...patientListsKey, p], queryFn: () => listPatients(p), placeholderData: keepPreviousData })

export const usePatients = (p: ListParams) => useQuery(patientsQuery(p))
