import { send } from '../../../lib/api'
import type { LineInput } from './chargeBill'
import type { Bill } from './types'

/** Changes a charge of a draft bill read at version (its quantity or discount). */
export const updateLine = (bill: Bill, lineId: number, line: LineInput) => send<Bill>('put', `/bills/${bill.id}/lines/${lineId}`, { ...line, version: bill.version }, { silent: true })
