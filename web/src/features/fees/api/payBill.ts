import { send } from '../../../lib/api'
import type { RequestBody, ResponseBody } from '../../../lib/schema'
import { useWrite } from '../../../lib/write'
import { billQuery } from './getBill'
import type { Bill, Document } from './types'

export type PaymentInput = RequestBody<'/api/bills/{id}/payments', 'post'>
export type RefundInput = RequestBody<'/api/bills/{id}/refunds', 'post'>
type Moved = ResponseBody<'/api/bills/{id}/payments', 'post', 201>

/** Takes a payment on a final bill; the form shows the server's field errors itself. */
export const payBill = (bill: Bill, v: PaymentInput) => send<Moved>('post', `/bills/${bill.id}/payments`, v, { silent: true })

/** Gives money back on a final bill, with a reason. */
export const refundBill = (bill: Bill, v: RefundInput) => send<Moved>('post', `/bills/${bill.id}/refunds`, v, { silent: true })

/** Withdraws a bill with a reason; with replace, answers the draft copy to correct. */
export const voidBill = (bill: Bill, reason: string, replace: boolean) => send<Bill>('post', `/bills/${bill.id}/void`, { reason, replace, version: bill.version }, { silent: true })

/** Records a print (or reprint) of a bill's statement or a payment's receipt; answers the bill to print. */
export const printBill = (id: number, document: Document, paymentId?: number) => send<Bill>('post', `/bills/${id}/print`, { document, payment_id: paymentId ?? 0 })

/** printBill, and the bill's views show the bill as the print left it. */
export const usePrintBill = () => useWrite(printBill, (queryClient, bill) => queryClient.setQueryData(billQuery(bill.id).queryKey, bill))
