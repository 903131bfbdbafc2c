import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../api'
import { appointmentsKey } from '../queryKeys'
import type { Schema } from '../schema'

/** One visit of a patient's history. */
export type HistoryItem = Schema<'Appointment'>

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
