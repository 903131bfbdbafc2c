import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { usePatientRecord } from '../../../lib/patientRecord'
import { documentsKey } from '../../../lib/queryKeys'
import type { ClinicalDocument } from './types'

export { documentsKey }

/** Whose documents: a patient's, or a visit's. */
export type Owner = { patientId: number } | { appointmentId: number }

const params = (o: Owner) => ('patientId' in o ? { patient_id: o.patientId } : { appointment_id: o.appointmentId })

export const useDocuments = (owner: Owner) =>
  useQuery<ClinicalDocument[]>({ queryKey: [...documentsKey, 'list', params(owner)], queryFn: () => get<{ data: ClinicalDocument[] }>('/documents', params(owner)).then((r) => r.data) })

/** The name and number of a document's patient, for the foot of each printed page. */
export const useDocumentPatient = (id: number | undefined) => usePatientRecord<{ first_name: string; middle_name: string; last_name: string; mrn: string }>(id)
