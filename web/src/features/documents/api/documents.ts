import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { documentsKey } from '../../../lib/queryKeys'
import { usePatientRecord } from '../../../lib/patientRecord'
import type { ClinicalDocument } from './types'

export { documentsKey }

/** Whose documents: a patient's, or a visit's. */
export type Owner = { patientId: number } | { appointmentId: number }

const params = (o: Owner) => ('patientId' in o ? { patient_id: o.patientId } : { appointment_id: o.appointmentId })

export const useDocuments = (owner: Owner) =>
  useQuery<ClinicalDocument[]>({ queryKey: [...documentsKey, 'list', params(owner)], queryFn: () => get<{ data: ClinicalDocument[] }>('/documents', params(owner)).then((r) => r.data) })

export const documentQuery = (id: number) => queryOptions({ queryKey: [...documentsKey, 'one', id], queryFn: () => get<ClinicalDocument>(`/documents/${id}`), refetchOnWindowFocus: false })

export const useDocument = (id: number) => useQuery(documentQuery(id))

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

/** Records a print or reprint (audited) and answers the document to print. */
export function usePrintDocument() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => send<ClinicalDocument>('post', `/documents/${id}/print`),
    onSuccess: (d) => queryClient.setQueryData(documentQuery(d.id).queryKey, d),
  })
}

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

/** The name and number of a document's patient, for the foot of each printed page. */
export const useDocumentPatient = (id: number | undefined) => usePatientRecord<{ first_name: string; middle_name: string; last_name: string; mrn: string }>(id)
