import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientQuery } from './getPatient'
import { patientListsKey } from './listPatients'
import { restorePatient } from './restorePatient'
import type { Patient } from './types'

/** Archives a patient, with a reason (records are never deleted). */
export const archivePatient = (id: number, reason: string) => send<Patient>('post', `/patients/${id}/archive`, { reason })

/** Archives (with a reason) or restores (null) a patient. */
export function useArchivePatient(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (reason: string | null) => (reason === null ? restorePatient(id) : archivePatient(id, reason)),
    onSuccess: (p) => {
      queryClient.setQueryData(patientQuery(p.id).queryKey, p)
      void queryClient.invalidateQueries({ queryKey: patientListsKey })
    },
  })
}
