import { useMutation, useQueryClient } from '@tanstack/react-query'
import { appointmentsKey } from '../../../lib/queryKeys'

/** A mutation of appointments: when it settles, every appointment view re-reads. */
export function useAppointmentMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: appointmentsKey }) })
}
