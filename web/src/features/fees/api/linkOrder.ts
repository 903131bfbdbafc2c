import { send } from '../../../lib/api'
import type { Bill } from './types'

/** Marks line lineId, added by hand, as what charges lab order orderId of the bill's visit (a draft or a final bill: no amount changes). */
export const linkOrder = (billId: number, lineId: number, orderId: number, version: number) =>
  send<Bill>('post', `/bills/${billId}/lines/${lineId}/order`, { order_id: orderId, version }, { silent: true })
