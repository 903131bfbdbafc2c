import { send } from '../../../lib/api'
import type { Bill } from './types'

/** Withdraws a bill with a reason; with replace, answers the draft copy to correct. */
export const voidBill = (bill: Bill, reason: string, replace: boolean) => send<Bill>('post', `/bills/${bill.id}/void`, { reason, replace, version: bill.version }, { silent: true })
