import type { Schema } from '../../../lib/schema'
// Prescriptions as the API shows them, and the pure rules the screens share.
import type { Allergy } from '../../../components/PatientBanner'
import type { Licence, Medicine } from '../../../lib/types'

export type { Allergy, Licence, Medicine }

export type Item = Schema<'PrescriptionItem'>


export type { Finding } from '../../../components/MedicineSafety'

export type { CheckOwner, CheckResult } from '../../../lib/queries/prescriptionCheck'

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

export type { Owner } from '../../../lib/queries/prescriptions'

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
