// The server's safety check of prescription lines being written (allergies, duplicate
// therapy, interactions): the prescription editor runs it as the prescriber types, and an
// order set's dialog on the set's lines before they are applied.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { send } from '../api'
import { prescriptionsKey } from '../queryKeys'
import type { ResponseBody, Schema } from '../schema'

export type CheckResult = ResponseBody<'/api/prescriptions/check', 'post'>

/** Whose lines are checked: a saved prescription's, a visit's, or a chosen patient's (none: a blank pad). */
export interface CheckOwner {
  prescriptionId?: number
  appointmentId?: number
  patientId?: number | null
}

type Line = Pick<Schema<'PrescriptionItem'>, 'medicine_id' | 'medicine' | 'by_weight'>

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

/** Re-run as the medicines change (enabled: false while there is nothing to check). */
export function usePrescriptionCheck(owner: CheckOwner, items: (Line | undefined)[], enabled = true) {
  // A dose by weight goes too (the check reads it), only on a line that has one.
  const lines = items.map((it) => ({ medicine_id: it?.medicine_id ?? null, medicine: it?.medicine ?? '', ...(it?.by_weight ? { by_weight: it.by_weight } : {}) }))
  return useQuery({ ...prescriptionCheckQuery(owner, lines), enabled })
}
