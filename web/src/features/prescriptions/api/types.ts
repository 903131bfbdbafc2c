import type { ResponseBody, Schema } from '../../../lib/schema'
// Prescriptions as the API shows them, and the pure rules the screens share.
import type { Allergy } from '../../../components/PatientBanner'
import type { Licence, Medicine } from '../../../lib/types'

export type { Allergy, Licence, Medicine }

export type Item = Schema<'PrescriptionItem'>


/** Something about a line the prescriber must acknowledge with a reason (the server decides). */
export type Finding = Schema<'SafetyFinding'>

export type CheckResult = ResponseBody<'/api/prescriptions/check', 'post'>

/** Whose lines are checked: a saved prescription's, a visit's, or a chosen patient's (none: a blank pad). */
export interface CheckOwner {
  prescriptionId?: number
  appointmentId?: number
  patientId?: number | null
}

export type Prescription = Schema<'Prescription'>

/** The routes a line may name (the server's list). */
export const ROUTES = ['oral', 'sublingual', 'topical', 'inhaled', 'nasal', 'ophthalmic', 'otic', 'rectal', 'vaginal', 'subcutaneous', 'intramuscular', 'intravenous_bolus', 'intravenous_infusion', 'transdermal'] as const

export const editable = (rx: Prescription) => rx.status === 'draft' || rx.status === 'ordered'

export const emptyItem = (): Item => ({
  medicine_id: null,
  medicine: '',
  dose: '',
  route: 'oral',
  frequency: '',
  duration: '',
  quantity: null,
  unit: '',
  refills: 0,
  instructions: '',
  override_reason: '',
  overrides: [],
})

export type Owner = { appointmentId: number } | { patientId: number } | { blank: true }

export interface Draft {
  id?: number
  appointmentId?: number
  patient_id?: number | null
  items: Item[]
  notes: string
  replaces_id?: number | null
  version?: number
}

export const printPath = (rx: { id: number }) => `/prescriptions/print/${rx.id}`
