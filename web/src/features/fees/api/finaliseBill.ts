import { send } from '../../../lib/api'
import type { Bill } from './types'

/** Numbers and fixes a draft bill. */
export const finaliseBill = (bill: Bill) => send<Bill>('post', `/bills/${bill.id}/finalise`, { version: bill.version })
