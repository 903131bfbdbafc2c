import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { documentsKey } from '../../../lib/queryKeys'
import { documentQuery } from './getDocument'
import type { ClinicalDocument } from './types'

export interface IssueRequest {
  template_id: number
  patient_id: number
  appointment_id?: number | null
  fields: Record<string, string>
}

export function useIssueDocument() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (req: IssueRequest) => send<ClinicalDocument>('post', '/documents', req),
    onSuccess: (d) => {
      queryClient.setQueryData(documentQuery(d.id).queryKey, d)
      void queryClient.invalidateQueries({ queryKey: [...documentsKey, 'list'] })
    },
  })
}
