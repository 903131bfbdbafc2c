import { send } from '../../../lib/api'
import type { CurrentMedicine } from './currentMedicines'
import { useMedicineChange } from './medicineChange'

/** Marks a recorded entry entered in error (wrong patient, wrong medicine), for a reason. */
export const markInError = ({ m, reason }: { m: CurrentMedicine; reason: string }) =>
  send<CurrentMedicine>('post', `/current-medicines/${m.id}/entered-in-error`, { reason, version: m.version }, { silent: true })

export const useMarkInError = () => useMedicineChange(markInError)
