// Reminders to the families of the children selected on the due list (POST
// /api/immunisation/due/remind): what was queued and what was skipped, and why.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { dueKey, type RemindResult } from './due'

export const remind = (patientIDs: number[]) => send<RemindResult>('post', '/immunisation/due/remind', { patient_ids: patientIDs })

/** Sends the reminders; the list is read again after (its "last reminded" column). */
export const useRemind = () => {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: remind, onSettled: () => queryClient.invalidateQueries({ queryKey: dueKey }) })
}
