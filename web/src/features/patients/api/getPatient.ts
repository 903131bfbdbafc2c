import { get } from '../../../lib/api'
import { patientRecordQuery, usePatientRecord } from '../../../lib/patientRecord'
import type { Patient } from './types'

export const getPatient = (id: number) => get<Patient>(`/patients/${id}`)

export const patientQuery = (id: number) => patientRecordQuery<Patient>(id)

export const usePatient = (id: number | undefined) => usePatientRecord<Patient>(id)
