import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { currentMedicinesQuery } from './currentMedicines'

/** What the list's review names a finding by, and why a prescriber keeps both medicines knowingly. */
export type KeepPairInput = Schema<'MedicinePair'> & { reason: string }

/** A prescriber keeps a finding of the list's review knowingly, for a reason: no longer one to resolve. */
export function useKeepPair(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: KeepPairInput) => send<Schema<'SafetyFinding'>>('post', `/patients/${patientId}/current-medicines/kept-pairs`, input, { silent: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}
