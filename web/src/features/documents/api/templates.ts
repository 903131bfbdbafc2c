import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { documentTemplatesKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'
import type { DocumentBlock, DocumentField, DocumentTemplate } from './types'

// Templates live under the patients' key with the documents: a change announced for patients
// refreshes both (the server announces issuing and cancelling that way).
export const templatesKey = documentTemplatesKey

/** The templates: active ones, or all for those who manage them. */
export const templatesQuery = (all: boolean) =>
  queryOptions({ queryKey: [...templatesKey, all], queryFn: () => get<{ data: DocumentTemplate[] }>('/document-templates', all ? { all: '1' } : {}).then((r) => r.data) })

export const useTemplates = (all = false) => useQuery(templatesQuery(all))

export const useTemplate = (id: number | undefined) =>
  useQuery(queryOptions({ queryKey: [...templatesKey, 'one', id], queryFn: () => get<DocumentTemplate>(`/document-templates/${id}`), enabled: id !== undefined, refetchOnWindowFocus: false }))

export type PlaceholderList = ResponseBody<'/api/document-templates/placeholders', 'get'>

export const usePlaceholders = () =>
  useQuery(queryOptions({ queryKey: [...templatesKey, 'placeholders'], queryFn: () => get<PlaceholderList>('/document-templates/placeholders'), staleTime: Infinity }))

/** Writes a template: a new one, or a change to one at its version. */
export function useSaveTemplate() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (t: DocumentTemplate) => (t.id ? send<DocumentTemplate>('put', `/document-templates/${t.id}`, t) : send<DocumentTemplate>('post', '/document-templates', t)),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: templatesKey }),
  })
}

export function useInstallStarter() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => send<{ added: number }>('post', '/document-templates/starter'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: templatesKey }),
  })
}

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
