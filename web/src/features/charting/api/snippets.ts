import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Snippet } from '../../../lib/charting'
import { snippetsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type SnippetInput = Schema<'SnippetInput'>

/** Adds or changes a snippet; the lists follow. */
export function useSaveSnippet() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: SnippetInput }) =>
      id ? send<Snippet>('put', `/snippets/${id}`, input, { silent: true }) : send<Snippet>('post', '/snippets', input, { silent: true }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: snippetsKey }),
  })
}
