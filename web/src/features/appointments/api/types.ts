import { chartPath } from '../../../lib/patient'

export type Status = 'booked' | 'arrived' | 'in-progress' | 'completed' | 'cancelled' | 'no-show'
export const STATUSES: Status[] = ['booked', 'arrived', 'in-progress', 'completed', 'cancelled', 'no-show']
export const TYPES = ['new', 'follow-up', 'walk-in'] as const
export const DURATIONS = [10, 15, 20, 30, 45, 60]

export interface Diagnosis {
  code: string
  text: string
  primary: boolean
  /** The code's label in the user's language (read only). */
  label?: string
}

export interface Appointment {
  id: number
  patient_id: number
  patient: { mrn: string; first_name: string; middle_name: string; last_name: string; sex: string; birth_date: string }
  doctor_id: number
  doctor_name: string
  starts_at: string
  duration_minutes: number
  day: string
  queue_number: number
  type: string
  reason: string
  remarks: string
  status: Status
  cancel_reason: string
  follow_up_of: number | null
  visit_status: '' | 'draft' | 'signed'
  diagnoses?: Diagnosis[]
  version: number
}

export interface AppointmentInput {
  patient_id: number
  doctor_id: number
  starts_at: string
  duration_minutes: number
  type: string
  reason: string
  remarks: string
}

export interface Doctor {
  id: number
  name: string
}

export interface Vitals {
  bp_systolic: number | null
  bp_diastolic: number | null
  heart_rate: number | null
  respiratory_rate: number | null
  temperature: number | null
  spo2: number | null
  weight: number | null
  height: number | null
}

export interface Order {
  code: string
  note: string
  /** The test's name in the reader's language (the server fills it in). */
  label?: string
}

export interface VisitContent {
  vitals: Vitals
  chief_complaint: string
  present_illness: string
  examination: string
  diagnoses: Diagnosis[]
  orders: Order[]
  plan: string
  follow_up_date: string
}

export interface Amendment {
  id: number
  reason: string
  amended_at: string
  amended_by: string
  previous: VisitContent
}

export interface Visit extends VisitContent {
  appointment_id: number
  status: '' | 'draft' | 'signed'
  bmi: number | null
  signed_at: string | null
  signed_by: string
  updated_at: string | null
  updated_by: string
  follow_up: { id: number; starts_at: string; status: Status } | null
  amendments: Amendment[]
  version: number
}

export interface Code {
  code: string
  label: string
}

export interface LabTest {
  code: string
  kind: 'lab' | 'imaging'
  label: string
}

/** The chart of an appointment's patient. */
export const chartOf = (a: Appointment) => chartPath({ id: a.patient_id, mrn: a.patient.mrn })
