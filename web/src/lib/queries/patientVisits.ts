import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../api'
import { appointmentsKey } from '../queryKeys'

/** One visit of a patient's history. */
export interface HistoryItem {
  id: number
  starts_at: string
  doctor_name: string
  type: string
  reason: string
  status: string
  visit_status: '' | 'draft' | 'signed'
  diagnoses?: { code: string; text: string; label?: string; primary: boolean }[]
}

export interface VisitsParams {
  patient_id: number
  page: number
  per_page: number
}

/** A patient's appointments, newest first, with their diagnoses for those who may read visits. */
export const listPatientVisits = (p: VisitsParams) => get<{ data: HistoryItem[]; meta: { total: number } }>('/appointments', { ...p })

export const patientVisitsQuery = (p: VisitsParams) =>
  queryOptions({ queryKey: [...appointmentsKey, 'history', p], queryFn: () => listPatientVisits(p), placeholderData: keepPreviousData })

export const usePatientVisits = (p: VisitsParams) => useQuery(patientVisitsQuery(p))
