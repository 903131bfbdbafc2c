import { send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import type { CurrentMedicine } from './currentMedicines'
import { useMedicineChange } from './medicineChange'

export type CurrentMedicineInput = Schema<'CurrentMedicineInput'>

/** Records a medicine (patientId) or corrects one (its id); the form shows the errors itself. */
export const saveCurrentMedicine = ({ patientId, id, input }: { patientId: number; id?: number; input: CurrentMedicineInput }) =>
  id
    ? send<CurrentMedicine>('put', `/current-medicines/${id}`, input, { silent: true })
    : send<CurrentMedicine>('post', `/patients/${patientId}/current-medicines`, input, { silent: true })

export const useSaveCurrentMedicine = () => useMedicineChange(saveCurrentMedicine)
