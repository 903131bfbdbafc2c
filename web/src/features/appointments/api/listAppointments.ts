import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { Appointment } from './types'

export interface ListParams {
  date?: string
  from?: string
  to?: string
  doctor_id?: number
  patient_id?: number
  status?: string
  page?: number
  per_page?: number
}

export interface AppointmentPage {
  data: Appointment[]
  meta: { total: number; page: number; per_page: number }
}

export const listAppointments = (p: ListParams) => get<AppointmentPage>('/appointments', { ...p })

/** A day's queue, a calendar range or a patient's history. The queue refreshes every 30 s. */
export const appointmentsQuery = (p: ListParams) =>
  queryOptions({ queryKey: [...appointmentsKey, 'list', p], queryFn: () => listAppointments(p), placeholderData: keepPreviousData, refetchInterval: 30_000 })

export const useAppointments = (p: ListParams, enabled = true) => useQuery({ ...appointmentsQuery(p), enabled })
