import { send } from '../../../lib/api'
import type { CurrentMedicine } from './currentMedicines'
import { useMedicineChange } from './medicineChange'

/** Why a medicine was stopped, in a word; "other" asks for words. */
export const STOP_CATEGORIES = ['course_completed', 'side_effect', 'not_effective', 'patient_choice', 'replaced', 'doctor_decision', 'other'] as const

export type StopCategory = (typeof STOP_CATEGORIES)[number]

export type StopInput = { m: CurrentMedicine; stopped_on: string; category: StopCategory; reason: string; appointmentId?: number }

/** Stops a recorded medicine, or a line of a prescription issued here that the patient no longer takes; at a visit, it prints on that visit's summary. */
export const stopCurrentMedicine = ({ m, stopped_on, category, reason, appointmentId }: StopInput) => {
  const body = { stopped_on, category, reason, appointment_id: appointmentId ?? null }
  return m.source === 'here'
    ? send<CurrentMedicine>('post', `/prescriptions/${m.prescription_id}/lines/${m.line}/stop`, body, { silent: true })
    : send<CurrentMedicine>('post', `/current-medicines/${m.id}/stop`, { ...body, version: m.version }, { silent: true })
}

export const useStopCurrentMedicine = () => useMedicineChange(stopCurrentMedicine)
