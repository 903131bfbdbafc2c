import { send } from '../../../lib/api'
import type { PatientInput, PatientSummary } from './types'

/** Patients who may be the same person (same name, birth date and sex, or same phone). */
export const findDuplicates = async (input: PatientInput, except = 0) =>
  (await send<{ data: PatientSummary[] }>('post', '/patients/duplicates', { ...input, except })).data
