import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Clinic } from '../../../lib/clinic'
import { prescriptionsKey } from '../../../lib/queryKeys'
import { prescriptionQuery } from './getPrescription'
import type { Prescription } from './types'

/** Prints: issues an unprinted prescription, or records a reprint; answers it with the clinic's header. */
export const printPrescription = (rx: Prescription) => send<Prescription & { clinic: Clinic }>('post', `/prescriptions/${rx.id}/print`, { version: rx.version })

export function usePrintPrescription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: printPrescription,
    onSuccess: (rx) => {
      queryClient.setQueryData(prescriptionQuery(rx.id).queryKey, rx)
      void queryClient.invalidateQueries({ queryKey: prescriptionsKey })
    },
  })
}
