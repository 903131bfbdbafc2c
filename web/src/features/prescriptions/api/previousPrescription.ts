import { get } from '../../../lib/api'
import type { Prescription } from './types'

/** The patient's latest prescription from an earlier visit ("copy last prescription"). */
export const previousPrescription = (appointmentId: number) => get<Prescription>(`/appointments/${appointmentId}/previous-prescription`, undefined, { silent: true })
