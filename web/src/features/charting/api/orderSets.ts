import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { appointmentsKey, orderSetsKey, prescriptionsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type OrderSet = Schema<'OrderSet'>
export type OrderSetInput = Schema<'OrderSetInput'>
export type SetContent = Schema<'OrderSetContent'>
export type Applied = Schema<'AppliedSet'>
export type Item = Schema<'PrescriptionItem'>
export type { Finding } from '../../../components/MedicineSafety'
export type Prescription = Schema<'Prescription'>

export const orderSetsQuery = () => queryOptions({ queryKey: [...orderSetsKey], queryFn: async () => (await get<{ data: OrderSet[] }>('/order-sets')).data })

/** The sets the doctor may apply: the clinic's and their own. */
export const useOrderSets = (enabled = true) => useQuery({ ...orderSetsQuery(), enabled })

/** Adds, changes or deletes a set; the lists follow. */
export function useSaveSet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: OrderSetInput }) =>
      id ? send<OrderSet>('put', `/order-sets/${id}`, input, { silent: true }) : send<OrderSet>('post', '/order-sets', input, { silent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orderSetsKey }),
  })
}

export function useDeleteSet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (s: OrderSet) => send<void>('delete', `/order-sets/${s.id}?version=${s.version}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orderSetsKey }),
  })
}

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
