import { useMutation, useQueryClient } from '@tanstack/react-query'
import { resultsKey } from '../../../lib/queryKeys'

/**
 * A mutation of results: on success, everything results show re-reads (the live channel
 * refreshes the results' key when anyone records, reviews or acknowledges, but skips one's own echo).
 */
export function useResultsMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: resultsKey }) })
}
