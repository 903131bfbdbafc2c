import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { AppointmentPage } from './listAppointments'
import type { Appointment } from './types'

export const getAppointment = (id: number) => get<Appointment>(`/appointments/${id}`)

export const appointmentQuery = (id: number) => queryOptions({ queryKey: [...appointmentsKey, 'one', id], queryFn: () => getAppointment(id) })

export const useAppointment = (id: number) => useQuery(appointmentQuery(id))

/**
 * The patient of an appointment as a list already read shows it (the queue, a calendar), or
 * undefined: what the visit needs to start reading the patient's head beside the appointment,
 * not after it. Read from the cache only; nothing is fetched for it.
 */
export function useListedPatientId(id: number): number | undefined {
  const lists = useQueryClient().getQueriesData<AppointmentPage>({ queryKey: [...appointmentsKey, 'list'] })
  for (const [, page] of lists) {
    const found = page?.data.find((a) => a.id === id)
    if (found) return found.patient_id
  }
  return undefined
}
