import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientKey } from './getPatient'
import type { Patient, PatientInput } from './types'

// Saving shows its own errors (field messages, conflicts) in the form.
export const createPatient = (input: PatientInput) => send<Patient>('post', '/patients', input, { silent: true })

export const updatePatient = (id: number, version: number, input: PatientInput) =>
  send<Patient>('put', `/patients/${id}`, { ...input, version }, { silent: true })

export function useSavePatient(id: number | undefined) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ input, version }: { input: PatientInput; version?: number }) => (id ? updatePatient(id, version!, input) : createPatient(input)),
    onSuccess: (p) => {
      queryClient.setQueryData(patientKey(p.id), p)
      void queryClient.invalidateQueries({ queryKey: ['patients', 'list'] })
    },
  })
}
