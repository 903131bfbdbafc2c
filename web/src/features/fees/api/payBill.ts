import { send } from '../../../lib/api'
import type { RequestBody, ResponseBody } from '../../../lib/schema'
import type { Bill } from './types'

export type PaymentInput = RequestBody<'/api/bills/{id}/payments', 'post'>

/** What a payment or a refund answers. */
export type Moved = ResponseBody<'/api/bills/{id}/payments', 'post', 201>

/** Takes a payment on a final bill; the form shows the server's field errors itself. */
export const payBill = (bill: Bill, v: PaymentInput) => send<Moved>('post', `/bills/${bill.id}/payments`, v, { silent: true })
