// The server's safety check of prescription lines being written (allergies, duplicate
// therapy, interactions): the prescription editor runs it as the prescriber types, and an
// order set's dialog on the set's lines before they are applied.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { send } from '../api'
import { useDebounced } from '../debounce'
import { prescriptionsKey } from '../queryKeys'
import type { ResponseBody, Schema } from '../schema'

export type CheckResult = ResponseBody<'/api/prescriptions/check', 'post'>

/** Whose lines are checked: a saved prescription's, a visit's, or a chosen patient's (none: a blank pad). */
export interface CheckOwner {
  prescriptionId?: number
  appointmentId?: number
  patientId?: number | null
}

type Line = Pick<Schema<'PrescriptionItem'>, 'medicine_id' | 'medicine' | 'by_weight'> & Partial<Pick<Schema<'PrescriptionItem'>, 'dose' | 'frequency'>>

/** How long the typing of a dose or a frequency pauses before the check runs on it (ms). */
export const TYPED_WAIT = 400

/** The server's safety check of lines being written (allergies, duplicate therapy). */
export const checkPrescription = (owner: CheckOwner, lines: Line[]) =>
  send<CheckResult>(
    'post',
    '/prescriptions/check',
    { prescription_id: owner.prescriptionId ?? null, appointment_id: owner.appointmentId ?? null, patient_id: owner.patientId ?? null, items: lines },
    { silent: true },
  )

export const prescriptionCheckQuery = (owner: CheckOwner, lines: Line[]) =>
  queryOptions({ queryKey: [...prescriptionsKey, 'check', owner, lines], queryFn: () => checkPrescription(owner, lines), placeholderData: keepPreviousData, staleTime: 10_000 })

/**
 * Re-run as the lines change (enabled: false while there is nothing to check). A medicine
 * picked is checked at once; a dose or a frequency typed once the typing pauses (TYPED_WAIT),
 * so a child's dose is checked against the dose table before the prescription is saved.
 */
export function usePrescriptionCheck(owner: CheckOwner, items: (Line | undefined)[], enabled = true) {
  const typed = useDebounced(items.map((it) => ({ dose: it?.dose ?? '', frequency: it?.frequency ?? '' })), TYPED_WAIT)
  // A dose by weight goes too (the check reads it), only on a line that has one; the dose and
  // the frequency only when written.
  const lines = items.map((it, i) => {
    const { dose, frequency } = typed[i] ?? { dose: '', frequency: '' }
    return { medicine_id: it?.medicine_id ?? null, medicine: it?.medicine ?? '', ...(it?.by_weight ? { by_weight: it.by_weight } : {}), ...(dose ? { dose } : {}), ...(frequency ? { frequency } : {}) }
  })
  return useQuery({ ...prescriptionCheckQuery(owner, lines), enabled })
}
