import { useMutation, useQueryClient } from '@tanstack/react-query'
import { immunisationsQuery } from './getImmunisations'

/** A write to a patient's record: when it settles, the record and the forecast are read again. */
export function useImmunisationChange<A, R>(patientId: number, fn: (a: A) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: immunisationsQuery(patientId).queryKey }),
  })
}
