import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { prescriptionsKey } from '../../../lib/queryKeys'
import type { Prescription } from './types'

/** Cancels a prescription, with a reason (an issued one is then replaced, never changed). */
export const cancelPrescription = ({ rx, reason }: { rx: Prescription; reason: string }) =>
  send<Prescription>('post', `/prescriptions/${rx.id}/cancel`, { reason, version: rx.version }, { silent: true })

export function useCancelPrescription() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: cancelPrescription, onSuccess: () => queryClient.invalidateQueries({ queryKey: prescriptionsKey }) })
}
