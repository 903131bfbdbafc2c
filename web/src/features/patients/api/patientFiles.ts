import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, http, send } from '../../../lib/api'
import { patientKey } from './getPatient'
import type { PatientFile } from './types'

const filesKey = (id: number) => ['patients', 'files', id] as const

export function usePatientFiles(id: number) {
  return useQuery({ queryKey: filesKey(id), queryFn: async () => (await get<{ data: PatientFile[] }>(`/patients/${id}/files`)).data })
}

/** Uploads the photo (kind "photo") or an attachment. */
export function useUploadPatientFile(id: number, kind: 'photo' | 'attachment') {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData()
      form.append('file', file)
      const url = kind === 'photo' ? `/patients/${id}/photo` : `/patients/${id}/files`
      return (await http.request<PatientFile>({ method: kind === 'photo' ? 'put' : 'post', url, data: form })).data
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: kind === 'photo' ? patientKey(id) : filesKey(id) })
    },
  })
}

export function useDeletePatientFile(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (fileId: number) => send<void>('delete', `/patients/${id}/files/${fileId}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: filesKey(id) }),
  })
}

export const fileUrl = (patientId: number, fileId: number) => `/api/patients/${patientId}/files/${fileId}`
/** The photo's address; `bust` changes after an upload so the browser fetches the new one. */
export const photoUrl = (patientId: number, bust: number) => `/api/patients/${patientId}/photo?v=${bust}`
