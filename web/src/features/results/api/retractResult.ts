import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'
import type { LabOrder } from './types'

/**
 * Retracts a result entered in error (result_id), or the order's whole report (no result_id), with the reason; with
 * the whole report, the visit's other collected orders chosen (same_draw) too.
 */
export const useRetract = (id: number) =>
  useResultsMutation((body: { version: number; result_id?: number; category: string; reason: string; same_draw?: { id: number; version: number }[] }) =>
    send<LabOrder>('post', `/lab-orders/${id}/retract`, body, { silent: true }),
  )
