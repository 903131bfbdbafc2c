import { changedPaths as changed, mergeMine as merge } from '../../lib/merge'
import type { PatientInput } from './api/types'

// The patient form's nested sections are compared field by field.
const NESTED = ['history', 'emergency_contact']

/** The fields (nested objects one level down) whose values differ between a and b. */
export const changedPaths = (a: PatientInput, b: PatientInput) => changed(a, b, NESTED)

/** Someone else's newer version with my own changes (relative to what I had loaded) on top. */
export const mergeMine = (loaded: PatientInput, mine: PatientInput, theirs: PatientInput) => merge(loaded, mine, theirs, NESTED)
