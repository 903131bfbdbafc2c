import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'

/** The ways a misfiled value is resolved (the server's MisfiledOutcomes). */
export const MISFILED_OUTCOMES = ['refiled', 'recollect', 'unidentified'] as const
export type MisfiledOutcome = (typeof MISFILED_OUTCOMES)[number]

export interface ResolveMisfiled {
  id: number
  version: number
  outcome: MisfiledOutcome
  order_id?: number
  order_version?: number
  note?: string
}

/** Resolves a wrong-patient result: refiled to the right patient's order, a new sample asked for, or its owner not identifiable. */
export const useResolveMisfiled = () => {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...body }: ResolveMisfiled) =>
      send<{ refiled_result_id: number | null }>('post', `/lab-results/${id}/misfiled/resolve`, body, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: resultsKey }),
  })
}
