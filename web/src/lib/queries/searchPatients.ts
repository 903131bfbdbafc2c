import { get } from '../api'
import type { Schema } from '../schema'

/** A patient as a picker lists them. */
export type PatientRow = Pick<Schema<'PatientSummary'>, 'id' | 'mrn' | 'first_name' | 'middle_name' | 'last_name' | 'birth_date'>

/** The first ten patients matching q (name or patient number). */
export const searchPatients = async (q: string) => (await get<{ data: PatientRow[] }>('/patients', { q, per_page: 10 })).data

/** One patient, for a picker that shows who is chosen already. */
export const getPatientRow = (id: number) => get<PatientRow>(`/patients/${id}`)
