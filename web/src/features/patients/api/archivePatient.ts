import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientKey } from './getPatient'
import type { Patient } from './types'

export const archivePatient = (id: number, reason: string) => send<Patient>('post', `/patients/${id}/archive`, { reason })
export const restorePatient = (id: number) => send<Patient>('post', `/patients/${id}/restore`)

/** Archives (with a reason) or restores a patient. */
export function useArchivePatient(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (reason: string | null) => (reason === null ? restorePatient(id) : archivePatient(id, reason)),
    onSuccess: (p) => {
      queryClient.setQueryData(patientKey(p.id), p)
      void queryClient.invalidateQueries({ queryKey: ['patients', 'list'] })
    },
  })
}
