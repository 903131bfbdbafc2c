import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { templatesKey } from './templates'
import type { DocumentBlock, DocumentField } from './types'

export interface PreviewRequest {
  body: string
  fields: DocumentField[]
  language: string
  patient_id: number
  appointment_id?: number | null
  values?: Record<string, string>
}

/** A template rendered for a patient (and a visit), as it would be issued now; the server's errors are the caller's to show. */
export const usePreview = (req: PreviewRequest | undefined) =>
  useQuery<DocumentBlock[]>({
    queryKey: [...templatesKey, 'preview', req],
    queryFn: () => send<{ content: DocumentBlock[] }>('post', '/document-templates/preview', req, { silent: true }).then((r) => r.content),
    enabled: !!req && req.patient_id > 0 && req.body.trim() !== '',
    placeholderData: keepPreviousData,
    retry: false,
    refetchOnWindowFocus: false,
  })
