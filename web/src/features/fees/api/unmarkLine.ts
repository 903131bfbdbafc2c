import { send } from '../../../lib/api'
import type { Bill } from './types'

/** A supervisor takes a hand mark off line lineId of a bill read at version, with a reason (no money moves). */
export const unmarkLine = (bill: Bill, lineId: number, reason: string) =>
  send<Bill>('post', `/bills/${bill.id}/lines/${lineId}/unmark`, { reason, version: bill.version }, { silent: true })
