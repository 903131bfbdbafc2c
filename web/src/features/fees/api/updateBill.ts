import { send } from '../../../lib/api'
import type { RequestBody } from '../../../lib/schema'
import type { Bill } from './types'

export type BillInput = RequestBody<'/api/bills/{id}', 'put'>

/** Sets a draft bill's own discount and notes at the version read. */
export const updateBill = (bill: Bill, v: Omit<BillInput, 'version'>) => send<Bill>('put', `/bills/${bill.id}`, { ...v, version: bill.version }, { silent: true })
