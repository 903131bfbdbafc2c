// The medicines a patient takes (issue 55, M4): those recorded as taken from elsewhere or over
// the counter, and the lines of prescriptions issued here whose supply lasts. The list sits
// under its patient's key, which the live channel refreshes when anyone changes it; a change
// here also re-runs the safety check of lines being written (under prescriptions').
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { patientsKey, prescriptionsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type CurrentMedicine = Schema<'CurrentMedicine'>
export type CurrentMedicineInput = Schema<'CurrentMedicineInput'>

export type TakesNone = Schema<'TakesNone'>

/** The list, and when the patient last said they take no medicines (null: never asked). */
export const currentMedicinesQuery = (patientId: number) =>
  queryOptions({
    queryKey: [...patientsKey, patientId, 'current-medicines'],
    queryFn: () => get<{ data: CurrentMedicine[]; takes_none: TakesNone | null }>(`/patients/${patientId}/current-medicines`),
  })

export const useCurrentMedicines = (patientId: number) => useQuery({ ...currentMedicinesQuery(patientId), select: (r) => r.data })
export const useTakesNone = (patientId: number) => useQuery({ ...currentMedicinesQuery(patientId), select: (r) => r.takes_none })

/** Records that, asked, the patient takes no medicines (issue 55, M4). */
export function useRecordTakesNone(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => send<TakesNone>('post', `/patients/${patientId}/current-medicines/none`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}

/** Records a medicine (patientId) or corrects one (its id); the form shows the errors itself. */
export const saveCurrentMedicine = ({ patientId, id, input }: { patientId: number; id?: number; input: CurrentMedicineInput }) =>
  id
    ? send<CurrentMedicine>('put', `/current-medicines/${id}`, input, { silent: true })
    : send<CurrentMedicine>('post', `/patients/${patientId}/current-medicines`, input, { silent: true })

/** Why a medicine was stopped, in a word; "other" asks for words. */
export const STOP_CATEGORIES = ['course_completed', 'side_effect', 'not_effective', 'patient_choice', 'replaced', 'doctor_decision', 'other'] as const
export type StopCategory = (typeof STOP_CATEGORIES)[number]

/** How the patient takes it, and who or what said they take it. */
export const ADHERENCES = ['as_directed', 'irregular', 'not_taking'] as const
export const INFO_SOURCES = ['patient', 'carer', 'pharmacy', 'other_clinic', 'packet'] as const

export type StopInput = { m: CurrentMedicine; stopped_on: string; category: StopCategory; reason: string; appointmentId?: number }

/** Stops a recorded medicine, or a line of a prescription issued here that the patient no longer takes; at a visit, it prints on that visit's summary. */
export const stopCurrentMedicine = ({ m, stopped_on, category, reason, appointmentId }: StopInput) => {
  const body = { stopped_on, category, reason, appointment_id: appointmentId ?? null }
  return m.source === 'here'
    ? send<CurrentMedicine>('post', `/prescriptions/${m.prescription_id}/lines/${m.line}/stop`, body, { silent: true })
    : send<CurrentMedicine>('post', `/current-medicines/${m.id}/stop`, { ...body, version: m.version }, { silent: true })
}

/** Marks a recorded entry entered in error (wrong patient, wrong medicine), for a reason. */
export const markInError = ({ m, reason }: { m: CurrentMedicine; reason: string }) =>
  send<CurrentMedicine>('post', `/current-medicines/${m.id}/entered-in-error`, { reason, version: m.version }, { silent: true })

/** A prescriber reviewed what a nurse recorded. */
export const reviewCurrentMedicine = ({ m }: { m: CurrentMedicine }) => send<CurrentMedicine>('post', `/current-medicines/${m.id}/review`, { version: m.version })

/** What the list's review names a finding by, and why a prescriber keeps both medicines knowingly. */
export type KeepPairInput = Schema<'MedicinePair'> & { reason: string }

/** A prescriber keeps a finding of the list's review knowingly, for a reason: no longer one to resolve. */
export function useKeepPair(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: KeepPairInput) => send<Schema<'SafetyFinding'>>('post', `/patients/${patientId}/current-medicines/kept-pairs`, input, { silent: true }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}

/** A prescriber withdraws a keep (theirs, or the reason given when prescribing): the finding is to resolve again. */
export function useReviewPairAgain(patientId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (pair: Schema<'MedicinePair'>) => send<Schema<'SafetyFinding'>>('post', `/patients/${patientId}/current-medicines/kept-pairs/review-again`, pair),
    onSettled: () => queryClient.invalidateQueries({ queryKey: currentMedicinesQuery(patientId).queryKey }),
  })
}

export const confirmCurrentMedicine = ({ m, appointmentId }: { m: CurrentMedicine; appointmentId: number }) =>
  send<CurrentMedicine>('post', `/current-medicines/${m.id}/confirm`, { appointment_id: appointmentId, version: m.version })

function useChange<A>(fn: (a: A) => Promise<CurrentMedicine>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: (m) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: m ? currentMedicinesQuery(m.patient_id).queryKey : patientsKey }),
        queryClient.invalidateQueries({ queryKey: prescriptionsKey }),
      ]),
  })
}

export const useSaveCurrentMedicine = () => useChange(saveCurrentMedicine)
export const useStopCurrentMedicine = () => useChange(stopCurrentMedicine)
export const useConfirmCurrentMedicine = () => useChange(confirmCurrentMedicine)
export const useMarkInError = () => useChange(markInError)
export const useReviewCurrentMedicine = () => useChange(reviewCurrentMedicine)
