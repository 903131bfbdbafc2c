import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { documentsKey } from '../../../lib/queryKeys'
import { documentQuery } from './getDocument'
import type { ClinicalDocument } from './types'

export function useCancelDocument() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ doc, reason }: { doc: ClinicalDocument; reason: string }) => send<ClinicalDocument>('post', `/documents/${doc.id}/cancel`, { version: doc.version, reason }),
    onSuccess: (d) => {
      queryClient.setQueryData(documentQuery(d.id).queryKey, d)
      void queryClient.invalidateQueries({ queryKey: [...documentsKey, 'list'] })
    },
  })
}
