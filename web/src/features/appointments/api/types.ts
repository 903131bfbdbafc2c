import type { ResponseBody, Schema } from '../../../lib/schema'
import { chartPath } from '../../../lib/patient'

export type Status = 'booked' | 'arrived' | 'in-progress' | 'completed' | 'cancelled' | 'no-show'
export const STATUSES: Status[] = ['booked', 'arrived', 'in-progress', 'completed', 'cancelled', 'no-show']
export const TYPES = ['new', 'follow-up', 'walk-in'] as const
export const DURATIONS = [10, 15, 20, 30, 45, 60]

export type Diagnosis = Schema<'Diagnosis'>

export type Appointment = Schema<'Appointment'>

export type AppointmentInput = Omit<Schema<'AppointmentInput'>, 'version'>

export type Doctor = ResponseBody<'/api/doctors', 'get'>['data'][number]

export type Vitals = Schema<'Vitals'>

export type Order = VisitContent['orders'][number]

export type VisitContent = Schema<'VisitContent'>

export type Amendment = Visit['amendments'][number]

export type Visit = Schema<'Visit'>

export type Code = ResponseBody<'/api/diagnosis-codes', 'get'>['data'][number]

export type LabTest = ResponseBody<'/api/lab-tests', 'get'>['data'][number]

/** The chart of an appointment's patient. */
export const chartOf = (a: Appointment) => chartPath({ id: a.patient_id, mrn: a.patient.mrn })
