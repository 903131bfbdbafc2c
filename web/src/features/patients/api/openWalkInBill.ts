import { send } from '../../../lib/api'
import type { ResponseBody } from '../../../lib/schema'

/** Writes a draft bill for the patient without a visit (a walk-in's charges); answers it. */
export const openWalkInBill = (patientId: number) => send<ResponseBody<'/api/bills', 'post', 201>>('post', '/bills', { patient_id: patientId })
