import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'
import type { LabOrder } from './types'

/** Moves an order along: collected, cancelled or not done (the last two with a reason). */
export const useTransition = (id: number) =>
  useResultsMutation(({ action, version, reason }: { action: 'collect' | 'cancel' | 'not-done'; version: number; reason?: string }) =>
    send<LabOrder>('post', `/lab-orders/${id}/${action}`, { version, reason }, { silent: true }),
  )
