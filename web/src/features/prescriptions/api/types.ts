// Prescriptions as the API shows them, and the pure rules the screens share.
import type { Allergy } from '../../../components/PatientBanner'
import type { Licence, Medicine } from '../../../lib/types'

export type { Allergy, Licence, Medicine }

export interface Item {
  medicine_id: number | null
  medicine: string
  dose: string
  route: string
  frequency: string
  duration: string
  quantity: string | null
  unit: string
  refills: number
  instructions: string
  /** Why the line is given despite its safety findings; stored with it, printed nowhere. */
  override_reason?: string
  /** The keys of the findings the reason acknowledges. */
  overrides?: string[]
}


/** Something about a line the prescriber must acknowledge with a reason (the server decides). */
export interface Finding {
  line: number
  key: string
  kind: 'allergy' | 'allergy_class' | 'cross_sensitivity' | 'duplicate' | 'duplicate_recent' | 'allergies_unrecorded'
  blocking: boolean
  allergy?: string
  severity?: string
  reaction?: string
  substance?: string
  class?: string
  other_line?: number
  other_prescription_id?: number
  other_medicine?: string
  other_date?: string
  overridden: boolean
}

export interface CheckResult {
  patient_id: number | null
  allergies: Allergy[]
  allergy_status?: string
  findings: Finding[]
}

/** Whose lines are checked: a saved prescription's, a visit's, or a chosen patient's (none: a blank pad). */
export interface CheckOwner {
  prescriptionId?: number
  appointmentId?: number
  patientId?: number | null
}

export interface Prescription {
  id: number
  kind: 'visit' | 'blank'
  appointment_id: number | null
  patient_id: number | null
  patient: {
    id: number
    mrn: string
    name: string
    first_name: string
    middle_name: string
    last_name: string
    sex: string
    birth_date: string
    age: number
    address: string
    allergies: Allergy[]
    allergy_status: string
  } | null
  status: 'draft' | 'issued' | 'ordered' | 'dispensed' | 'cancelled'
  items: Item[]
  notes: string
  prescriber: { id: number; name: string; specialisations: string[]; licences: Licence[] } | null
  has_signature: boolean
  signature_url: string
  warnings: ('no_signature' | 'no_licence' | 'licence_expired')[]
  /** A visit's diagnoses (code and label), which the print carries. */
  diagnoses: { code: string; text: string; primary: boolean; label?: string }[]
  /** An unprinted prescription's safety findings, as the server checks them now. */
  safety: Finding[]
  issued_at: string | null
  cancel_reason: string
  cancelled_at: string | null
  replaces_id: number | null
  created_at: string
  created_by: string
  version: number
}

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
