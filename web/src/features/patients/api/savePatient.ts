import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientQuery } from './getPatient'
import { patientListsKey } from './listPatients'
import type { Patient, PatientInput } from './types'

// Saving shows its own errors (field messages, conflicts) in the form.
/** Registers a patient; distinctFrom are the possible duplicates the user confirmed to be other people. */
export const createPatient = (input: PatientInput, distinctFrom: number[] = []) => send<Patient>('post', '/patients', { ...input, distinct_from: distinctFrom }, { silent: true })

export const updatePatient = (id: number, version: number, input: PatientInput) =>
  send<Patient>('put', `/patients/${id}`, { ...input, version }, { silent: true })

export function useSavePatient(id: number | undefined) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ input, version, distinctFrom }: { input: PatientInput; version?: number; distinctFrom?: number[] }) =>
      id ? updatePatient(id, version!, input) : createPatient(input, distinctFrom),
    onSuccess: (p) => {
      queryClient.setQueryData(patientQuery(p.id).queryKey, p)
      void queryClient.invalidateQueries({ queryKey: patientListsKey })
    },
  })
}
