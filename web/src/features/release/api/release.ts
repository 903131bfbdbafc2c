import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type ReleaseStatus = Schema<'ReleaseStatus'>

export type ReleaseSettings = Schema<'ReleaseSettings'>

export type ReleaseKind = ReleaseStatus['kind']

/** The root of a patient's release views: a choice, or a change to the patient, refreshes both. */
export const releaseKey = (patientId: number) => [...patientsKey, patientId, 'release'] as const

/** Each result, document and prescription of the patient: whether they see it, why not, when they opened it. */
export const releaseStatusesQuery = (patientId: number) =>
  queryOptions({ queryKey: [...releaseKey(patientId), 'statuses'], queryFn: () => get<{ data: ReleaseStatus[] }>(`/patients/${patientId}/release`).then((r) => r.data) })

export const useReleaseStatuses = (patientId: number) => useQuery(releaseStatusesQuery(patientId))

/** Where each kind of item is released or held. */
export const paths: Record<ReleaseKind, string> = { result: 'results', document: 'documents', prescription: 'prescriptions' }

export const releaseSettingsKey = [...settingsKey, 'patient-release'] as const

/** What the patient's portal shows read again, after an item was released or held (the promise settles once it is). */
export function useRefreshRelease(patientId: number) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: releaseKey(patientId) })
}
