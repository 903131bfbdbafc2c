import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { templatesKey } from './templates'
import type { DocumentTemplate } from './types'

/** Writes a template: a new one, or a change to one at its version. */
export function useSaveTemplate() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (t: DocumentTemplate) => (t.id ? send<DocumentTemplate>('put', `/document-templates/${t.id}`, t) : send<DocumentTemplate>('post', '/document-templates', t)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: templatesKey }),
  })
}
