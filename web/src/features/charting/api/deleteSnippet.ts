import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Snippet } from '../../../lib/charting'
import { snippetsKey } from '../../../lib/queryKeys'

export function useDeleteSnippet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (s: Snippet) => send<void>('delete', `/snippets/${s.id}?version=${s.version}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: snippetsKey }),
  })
}
