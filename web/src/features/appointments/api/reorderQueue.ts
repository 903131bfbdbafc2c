import { send } from '../../../lib/api'
import { useAppointmentMutation } from './mutation'

/** Puts a doctor's queue of a day in the given order. */
export const reorderQueue = (body: { date: string; doctor_id: number; ids: number[] }) => send<void>('post', '/appointments/queue', body)

export const useReorderQueue = () => useAppointmentMutation(reorderQueue)
