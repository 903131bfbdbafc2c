import { send } from '../../../lib/api'
import { useAppointmentMutation } from './mutation'
import type { Appointment } from './types'

export type StatusAction = 'arrive' | 'start' | 'complete' | 'cancel' | 'no-show'

/** Moves an appointment along its workflow (a cancellation carries its reason). */
export const changeStatus = ({ a, action, reason }: { a: Appointment; action: StatusAction; reason?: string }) =>
  send<Appointment>('post', `/appointments/${a.id}/${action}`, { version: a.version, reason })

export const useChangeStatus = () => useAppointmentMutation(changeStatus)
