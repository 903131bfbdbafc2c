import { send } from '../../../lib/api'
import type { Patient, PatientInput } from './types'

export const updatePatient = (id: number, version: number, input: PatientInput) =>
  send<Patient>('put', `/patients/${id}`, { ...input, version }, { silent: true })
