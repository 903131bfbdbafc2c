import { send } from '../../../lib/api'
import type { CurrentMedicine } from './currentMedicines'
import { useMedicineChange } from './medicineChange'

/** A prescriber reviewed what a nurse recorded. */
export const reviewCurrentMedicine = ({ m }: { m: CurrentMedicine }) => send<CurrentMedicine>('post', `/current-medicines/${m.id}/review`, { version: m.version })

export const useReviewCurrentMedicine = () => useMedicineChange(reviewCurrentMedicine)
