import { send } from '../../../lib/api'
import type { RequestBody } from '../../../lib/schema'
import type { Bill } from './types'

export type LineInput = Partial<RequestBody<'/api/bills/{id}/lines', 'post'>>

/** Charges a service or free-text item: on the bill, or on the visit's (written on the first charge). */
export const addLine = (to: { billId?: number; appointmentId?: number }, line: LineInput) =>
  send<Bill>('post', to.billId ? `/bills/${to.billId}/lines` : `/appointments/${to.appointmentId}/bill/lines`, line, { silent: true })
