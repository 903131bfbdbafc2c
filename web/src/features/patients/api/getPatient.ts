import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { Patient } from './types'

export const patientKey = (id: number) => ['patients', 'one', id] as const

export const getPatient = (id: number) => get<Patient>(`/patients/${id}`)

export function usePatient(id: number | undefined) {
  return useQuery({ queryKey: patientKey(id ?? 0), queryFn: () => getPatient(id!), enabled: Boolean(id) })
}
