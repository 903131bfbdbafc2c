import { send } from '../../../lib/api'
import type { RequestBody } from '../../../lib/schema'
import type { Moved } from './payBill'
import type { Bill } from './types'

export type RefundInput = RequestBody<'/api/bills/{id}/refunds', 'post'>

/** Gives money back on a final bill, with a reason. */
export const refundBill = (bill: Bill, v: RefundInput) => send<Moved>('post', `/bills/${bill.id}/refunds`, v, { silent: true })
