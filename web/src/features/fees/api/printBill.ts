import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { billQuery } from './getBill'
import type { Bill, Document } from './types'

/** Records a print (or reprint) of a bill's statement or a payment's receipt; answers the bill to print. */
export const printBill = (id: number, document: Document, paymentId?: number) => send<Bill>('post', `/bills/${id}/print`, { document, payment_id: paymentId ?? 0 })

/** printBill, and the bill's views show the bill as the print left it. */
export const usePrintBill = () => useWrite(printBill, (queryClient, bill) => queryClient.setQueryData(billQuery(bill.id).queryKey, bill))
