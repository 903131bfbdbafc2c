import { send } from '../../../lib/api'
import { useAppointmentMutation } from './mutation'
import type { Appointment, AppointmentInput } from './types'

/** Books (no id) or edits an appointment at the version read; the booking form shows its own errors. */
export const saveAppointment = ({ id, version, input }: { id?: number; version?: number; input: AppointmentInput }) =>
  id ? send<Appointment>('put', `/appointments/${id}`, { ...input, version }, { silent: true }) : send<Appointment>('post', '/appointments', input, { silent: true })

export const useSaveAppointment = () => useAppointmentMutation(saveAppointment)
