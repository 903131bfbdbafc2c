import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { documentQuery } from './getDocument'
import type { ClinicalDocument } from './types'

/** Records a print or reprint (audited) and answers the document to print. */
export function usePrintDocument() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => send<ClinicalDocument>('post', `/documents/${id}/print`),
    onSuccess: (d) => queryClient.setQueryData(documentQuery(d.id).queryKey, d),
  })
}
