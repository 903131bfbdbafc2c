import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { orderSetsKey } from '../../../lib/queryKeys'
import type { OrderSet } from './orderSets'

export function useDeleteSet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (s: OrderSet) => send<void>('delete', `/order-sets/${s.id}?version=${s.version}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: orderSetsKey }),
  })
}
