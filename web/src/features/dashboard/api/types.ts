import type { ResponseBody, Schema } from '../../../lib/schema'
export const STATUSES = ['booked', 'arrived', 'in-progress', 'completed', 'cancelled', 'no-show'] as const
export const SEXES = ['female', 'male', 'other', 'unknown'] as const

export type DayCounts = Schema<'DayCounts'>

export type AppointmentFigures = ResponseBody<'/api/dashboard/appointments', 'get'>

export type PatientFigures = ResponseBody<'/api/dashboard/patients', 'get'>

export type DiagnosisFigures = ResponseBody<'/api/dashboard/diagnoses', 'get'>

export const total = (c: DayCounts) => Object.values(c.by_status).reduce((a, b) => a + b, 0)
