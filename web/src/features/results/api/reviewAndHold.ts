import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientsKey, resultsKey } from '../../../lib/queryKeys'
import type { LabOrder } from './types'

/** Holds an order's result for discussion (the patient reads only that their doctor will discuss
 * it; due for review by the server's default day), then marks it reviewed: the hold comes first,
 * so the rule never releases it in between. */
export const useReviewAndHold = () => {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ order, reason, comment }: { order: LabOrder; reason: string; comment: string }) => {
      await send('post', `/release/results/${order.id}`, { action: 'hold', version: 0, hold_kind: 'discuss', category: 'in_person', reason }, { silent: true })
      return send<{ reviewed: number }>('post', '/results/review', { orders: [{ id: order.id, version: order.version }], comment }, { silent: true })
    },
    onSettled: (_, __, { order }) => {
      void qc.invalidateQueries({ queryKey: resultsKey })
      void qc.invalidateQueries({ queryKey: [...patientsKey, order.patient_id] })
    },
  })
}
