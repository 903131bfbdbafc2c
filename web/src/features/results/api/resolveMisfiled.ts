import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'

/** Closes a wrong-patient result's task with a note saying how it was resolved. */
export const useResolveMisfiled = () => {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, note }: { id: number; note: string }) => send<void>('post', `/lab-results/${id}/misfiled/resolve`, { note }, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: resultsKey }),
  })
}
