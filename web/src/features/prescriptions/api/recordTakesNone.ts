import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { type TakesNone, currentMedicinesQuery } from './currentMedicines'

/** Records that, asked, the patient takes no medicines (issue 55, M4). */
export function useRecordTakesNone(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => send<TakesNone>('post', `/patients/${patientId}/current-medicines/none`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}
