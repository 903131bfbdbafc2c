import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { AllergyFacts } from '../../../components/PatientBanner'

/** What the visit shows of its patient: the banner's age and sex, and the allergies. */
export interface PatientHead {
  id: number
  sex: string
  birth_date: string
  history: AllergyFacts
}

export const getPatientHead = (id: number) => get<PatientHead>(`/patients/${id}`)

/** Under the patients' key, so that a change to the patient (its allergies above all) re-reads it. */
export const patientHeadQuery = (id: number) => queryOptions({ queryKey: [...patientsKey, 'head', id], queryFn: () => getPatientHead(id) })

/** The patient's head; waits while the id is not yet known. */
export const usePatientHead = (id: number | undefined) => useQuery({ ...patientHeadQuery(id ?? 0), enabled: id !== undefined })
