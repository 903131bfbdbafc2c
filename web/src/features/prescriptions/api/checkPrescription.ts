import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { prescriptionsKey } from '../../../lib/queryKeys'
import type { CheckOwner, CheckResult, Item } from './types'

type Line = Pick<Item, 'medicine_id' | 'medicine'>

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

/** Re-run as the medicines change. */
export function usePrescriptionCheck(owner: CheckOwner, items: Line[]) {
  const lines = items.map((it) => ({ medicine_id: it?.medicine_id ?? null, medicine: it?.medicine ?? '' }))
  return useQuery(prescriptionCheckQuery(owner, lines))
}
