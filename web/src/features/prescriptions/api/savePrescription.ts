import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { prescriptionsKey } from '../../../lib/queryKeys'
import type { Draft, Prescription } from './types'

/** Creates (on a visit, or on the blank pad) or changes a prescription; the form shows the errors itself. */
export const savePrescription = (d: Draft) => {
  const body = { items: d.items, notes: d.notes, patient_id: d.patient_id ?? null, replaces_id: d.replaces_id ?? null, version: d.version ?? 0 }
  if (d.id) return send<Prescription>('put', `/prescriptions/${d.id}`, body, { silent: true })
  if (d.appointmentId) return send<Prescription>('post', `/appointments/${d.appointmentId}/prescriptions`, body, { silent: true })
  return send<Prescription>('post', '/prescriptions', body, { silent: true })
}

export function useSavePrescription() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: savePrescription, onSuccess: () => queryClient.invalidateQueries({ queryKey: prescriptionsKey }) })
}
