import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createPatient } from './createPatient'
import { patientQuery } from './getPatient'
import { patientListsKey } from './listPatients'
import type { PatientInput } from './types'
import { updatePatient } from './updatePatient'

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
