import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { PatientFile } from './types'

export const listPatientFiles = async (id: number) => (await get<{ data: PatientFile[] }>(`/patients/${id}/files`)).data

export const patientFilesQuery = (id: number) => queryOptions({ queryKey: [...patientsKey, 'files', id], queryFn: () => listPatientFiles(id) })

export const usePatientFiles = (id: number) => useQuery(patientFilesQuery(id))

export const fileUrl = (patientId: number, fileId: number) => `/api/patients/${patientId}/files/${fileId}`
/** The photo's address; `bust` changes after an upload so the browser fetches the new one. */
export const photoUrl = (patientId: number, bust: number) => `/api/patients/${patientId}/photo?v=${bust}`
