import { useMutation, useQueryClient } from '@tanstack/react-query'
import { patientsKey, prescriptionsKey } from '../../../lib/queryKeys'
import { currentMedicinesQuery, type CurrentMedicine } from './currentMedicines'

/** A change to a current medicine: when it settles, its patient's list and the safety check of lines being written re-read. */
export function useMedicineChange<A>(fn: (a: A) => Promise<CurrentMedicine>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: (m) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: m ? currentMedicinesQuery(m.patient_id).queryKey : patientsKey }),
        queryClient.invalidateQueries({ queryKey: prescriptionsKey }),
      ]),
  })
}
