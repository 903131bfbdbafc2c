import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { currentMedicinesQuery } from './currentMedicines'

/** A prescriber withdraws a keep (theirs, or the reason given when prescribing): the finding is to resolve again. */
export function useReviewPairAgain(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pair: Schema<'MedicinePair'>) => send<Schema<'SafetyFinding'>>('post', `/patients/${patientId}/current-medicines/kept-pairs/review-again`, pair),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}
