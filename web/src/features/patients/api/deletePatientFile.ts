import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientFilesQuery } from './listPatientFiles'

export const deletePatientFile = (id: number, fileId: number) => send<void>('delete', `/patients/${id}/files/${fileId}`)

export function useDeletePatientFile(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (fileId: number) => deletePatientFile(id, fileId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: patientFilesQuery(id).queryKey }),
  })
}
