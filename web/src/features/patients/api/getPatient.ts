import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { Patient } from './types'

export const getPatient = (id: number) => get<Patient>(`/patients/${id}`)

export const patientQuery = (id: number) => queryOptions({ queryKey: [...patientsKey, 'one', id], queryFn: () => getPatient(id) })

export const usePatient = (id: number | undefined) => useQuery({ ...patientQuery(id ?? 0), enabled: Boolean(id) })
