import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { appointmentsKey, prescriptionsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import type { SetContent } from './orderSets'

export type Applied = Schema<'AppliedSet'>

/** Applies what the doctor kept of a set to a visit, in one transaction on the server. */
export function useApplySet(appointmentId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { set_id: number | null; version: number; content: SetContent; repeat: string[] }) => send<Applied>('post', `/appointments/${appointmentId}/order-set`, body, { silent: true }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: prescriptionsKey })
      void queryClient.invalidateQueries({ queryKey: appointmentsKey })
    },
  })
}
