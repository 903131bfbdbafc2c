// One query of a patient's record for every feature that reads it (the chart, the form, a
// printed document's page foot): one cache key, one address. Each reader names the fields it
// needs as T.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from './api'
import { patientsKey } from './queryKeys'

export const patientRecordQuery = <T>(id: number) => queryOptions({ queryKey: [...patientsKey, 'one', id], queryFn: () => get<T>(`/patients/${id}`) })

export const usePatientRecord = <T>(id: number | undefined) => useQuery({ ...patientRecordQuery<T>(id ?? 0), enabled: Boolean(id) })
