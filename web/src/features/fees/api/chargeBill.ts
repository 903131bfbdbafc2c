import { send } from '../../../lib/api'
import type { RequestBody } from '../../../lib/schema'
import type { Bill } from './types'

export type LineInput = Partial<RequestBody<'/api/bills/{id}/lines', 'post'>>
export type BillInput = RequestBody<'/api/bills/{id}', 'put'>

/** Charges a service or free-text item: on the bill, or on the visit's (written on the first charge). */
export const addLine = (to: { billId?: number; appointmentId?: number }, line: LineInput) =>
  send<Bill>('post', to.billId ? `/bills/${to.billId}/lines` : `/appointments/${to.appointmentId}/bill/lines`, line, { silent: true })

/** Changes a charge of a draft bill read at version (its quantity or discount). */
export const updateLine = (bill: Bill, lineId: number, line: LineInput) => send<Bill>('put', `/bills/${bill.id}/lines/${lineId}`, { ...line, version: bill.version }, { silent: true })

/** Takes a charge off a draft bill read at version. */
export const removeLine = (bill: Bill, lineId: number) => send<Bill>('delete', `/bills/${bill.id}/lines/${lineId}?version=${bill.version}`)

/** Sets a draft bill's own discount and notes at the version read. */
export const updateBill = (bill: Bill, v: Omit<BillInput, 'version'>) => send<Bill>('put', `/bills/${bill.id}`, { ...v, version: bill.version }, { silent: true })

/** Numbers and fixes a draft bill. */
export const finaliseBill = (bill: Bill) => send<Bill>('post', `/bills/${bill.id}/finalise`, { version: bill.version })

/** Opens the visit's bill (with the consultation fee of its type, when the settings name one). */
export const openVisitBill = (appointmentId: number) => send<Bill>('post', `/appointments/${appointmentId}/bill`, {})

/** Marks line lineId, added by hand, as what charges lab order orderId of the bill's visit (a draft or a final bill: no amount changes). */
export const linkOrder = (billId: number, lineId: number, orderId: number, version: number) =>
  send<Bill>('post', `/bills/${billId}/lines/${lineId}/order`, { order_id: orderId, version }, { silent: true })

/** A supervisor takes a hand mark off line lineId of a bill read at version, with a reason (no money moves). */
export const unmarkLine = (bill: Bill, lineId: number, reason: string) =>
  send<Bill>('post', `/bills/${bill.id}/lines/${lineId}/unmark`, { reason, version: bill.version }, { silent: true })
