import { get } from '../api'

/** A patient as a picker lists them. */
export interface PatientRow {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  birth_date: string
}

/** The first ten patients matching q (name or patient number). */
export const searchPatients = async (q: string) => (await get<{ data: PatientRow[] }>('/patients', { q, per_page: 10 })).data

/** One patient, for a picker that shows who is chosen already. */
export const getPatientRow = (id: number) => get<PatientRow>(`/patients/${id}`)
