import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import type { Appointment, AppointmentInput, Doctor } from './types'

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

export const appointmentsKey = ['appointments'] as const

export const listAppointments = (p: ListParams) => get<AppointmentPage>('/appointments', { ...p })

/** A day's queue, a calendar range or a patient's history. The queue refreshes every 30 s. */
export function useAppointments(p: ListParams, enabled = true) {
  return useQuery({
    queryKey: [...appointmentsKey, 'list', p],
    queryFn: () => listAppointments(p),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
    enabled,
  })
}

export function useAppointment(id: number) {
  return useQuery({ queryKey: [...appointmentsKey, 'one', id], queryFn: () => get<Appointment>(`/appointments/${id}`) })
}

export function useDoctors() {
  return useQuery({ queryKey: ['doctors'], queryFn: async () => (await get<{ data: Doctor[] }>('/doctors')).data, staleTime: 60_000 })
}

/** Every mutation of appointments refreshes every appointment view. */
function useAppointmentMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: appointmentsKey }) })
}

/** Books (no id) or edits an appointment; the booking form shows its own errors. */
export function useSaveAppointment() {
  return useAppointmentMutation(({ id, version, input }: { id?: number; version?: number; input: AppointmentInput }) =>
    id ? send<Appointment>('put', `/appointments/${id}`, { ...input, version }, { silent: true }) : send<Appointment>('post', '/appointments', input, { silent: true }),
  )
}

export type StatusAction = 'arrive' | 'start' | 'complete' | 'cancel' | 'no-show'

export function useChangeStatus() {
  return useAppointmentMutation(({ a, action, reason }: { a: Appointment; action: StatusAction; reason?: string }) =>
    send<Appointment>('post', `/appointments/${a.id}/${action}`, { version: a.version, reason }),
  )
}

export function useReorderQueue() {
  return useAppointmentMutation((body: { date: string; doctor_id: number; ids: number[] }) => send<void>('post', '/appointments/queue', body))
}
