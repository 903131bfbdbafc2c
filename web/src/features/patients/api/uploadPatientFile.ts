import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientQuery } from './getPatient'
import { patientFilesQuery } from './listPatientFiles'
import type { PatientFile } from './types'

/** Uploads the photo (kind "photo", replacing it) or an attachment. */
export const uploadPatientFile = (id: number, kind: 'photo' | 'attachment', file: File) => {
  const form = new FormData()
  form.append('file', file)
  return kind === 'photo' ? send<PatientFile>('put', `/patients/${id}/photo`, form) : send<PatientFile>('post', `/patients/${id}/files`, form)
}

export function useUploadPatientFile(id: number, kind: 'photo' | 'attachment') {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (file: File) => uploadPatientFile(id, kind, file),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: kind === 'photo' ? patientQuery(id).queryKey : patientFilesQuery(id).queryKey }),
  })
}
