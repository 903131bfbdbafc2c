import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { orderSetsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import type { OrderSet } from './orderSets'

export type OrderSetInput = Schema<'OrderSetInput'>

/** Adds, changes or deletes a set; the lists follow. */
export function useSaveSet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: OrderSetInput }) =>
      id ? send<OrderSet>('put', `/order-sets/${id}`, input, { silent: true }) : send<OrderSet>('post', '/order-sets', input, { silent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orderSetsKey }),
  })
}
