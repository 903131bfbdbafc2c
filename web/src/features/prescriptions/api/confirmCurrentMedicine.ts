import { send } from '../../../lib/api'
import type { CurrentMedicine } from './currentMedicines'
import { useMedicineChange } from './medicineChange'

export const confirmCurrentMedicine = ({ m, appointmentId }: { m: CurrentMedicine; appointmentId: number }) =>
  send<CurrentMedicine>('post', `/current-medicines/${m.id}/confirm`, { appointment_id: appointmentId, version: m.version })

export const useConfirmCurrentMedicine = () => useMedicineChange(confirmCurrentMedicine)
