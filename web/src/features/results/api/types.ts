// The results' types and the server's fixed lists: what every operation of api/ and the screens share.
import type { ResponseBody, Schema } from '../../../lib/schema'

export type LabOrder = Schema<'LabOrder'>
export type LabResult = Schema<'LabResult'>
export type CriticalAlert = Schema<'CriticalAlert'>
export type Trend = ResponseBody<'/api/patients/{id}/trend', 'get'>
export type TestResults = Schema<'TestResults'>
export type Analyte = TestResults['analytes'][number]
export type ResultSettings = Schema<'ResultSettings'>
export type DueHold = Schema<'ReleaseDueHold'>
export type HoldsDue = ResponseBody<'/api/release/holds-due', 'get'>

/** What may have been done about a withdrawn critical value (the server's Followups). */
export const FOLLOWUPS = ['patient_contacted', 'treatment_changed', 'receiver_told', 'repeat_ordered', 'no_action_needed'] as const

/** Why a result is retracted (the server's RetractCategories). */
export const RETRACT_CATEGORIES = ['specimen', 'wrong_patient', 'transcription', 'other'] as const

/** A list the server answers. */
export interface List<T> {
  data: T[]
}

/** What an order's page shows of its patient (read through the shared patient record). */
export interface PatientHead {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  sex: string
  birth_date: string
}
