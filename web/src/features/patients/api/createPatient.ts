import { send } from '../../../lib/api'
import type { Patient, PatientInput } from './types'

// Saving shows its own errors (field messages, conflicts) in the form.
/** Registers a patient; distinctFrom are the possible duplicates the user confirmed to be other people. */
export const createPatient = (input: PatientInput, distinctFrom: number[] = []) => send<Patient>('post', '/patients', { ...input, distinct_from: distinctFrom }, { silent: true })
