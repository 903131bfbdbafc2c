import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { PatientFigures } from './types'

/** The register: total, this month, 12 months, ages by sex. */
export const getPatientFigures = () => get<PatientFigures>('/dashboard/patients')

// Under the key the live channel refreshes: a change anywhere re-reads these figures.
export const patientFiguresQuery = () => queryOptions({ queryKey: [...patientsKey, 'dashboard'], queryFn: getPatientFigures })

export const usePatientFigures = (enabled: boolean) => useQuery({ ...patientFiguresQuery(), enabled })
