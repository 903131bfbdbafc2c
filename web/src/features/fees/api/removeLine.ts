import { send } from '../../../lib/api'
import type { Bill } from './types'

/** Takes a charge off a draft bill read at version. */
export const removeLine = (bill: Bill, lineId: number) => send<Bill>('delete', `/bills/${bill.id}/lines/${lineId}?version=${bill.version}`)
