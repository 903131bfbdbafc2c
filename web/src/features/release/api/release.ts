import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { patientsKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import { useWrite } from '../../../lib/write'

export type ReleaseStatus = Schema<'ReleaseStatus'>
export type ReleasedItem = Schema<'ReleasedItem'>
export type ReleaseSettings = Schema<'ReleaseSettings'>
export type ReleaseKind = ReleaseStatus['kind']

/** The root of a patient's release views: a choice, or a change to the patient, refreshes both. */
export const releaseKey = (patientId: number) => [...patientsKey, patientId, 'release'] as const

/** Each result, document and prescription of the patient: whether they see it, why not, when they opened it. */
export const releaseStatusesQuery = (patientId: number) =>
  queryOptions({ queryKey: [...releaseKey(patientId), 'statuses'], queryFn: () => get<{ data: ReleaseStatus[] }>(`/patients/${patientId}/release`).then((r) => r.data) })

export const useReleaseStatuses = (patientId: number) => useQuery(releaseStatusesQuery(patientId))

/** What the patient sees, as they see it. */
export const releasedQuery = (patientId: number) =>
  queryOptions({ queryKey: [...releaseKey(patientId), 'released'], queryFn: () => get<{ data: ReleasedItem[] }>(`/patients/${patientId}/released`).then((r) => r.data) })

export const useReleased = (patientId: number, enabled: boolean) => useQuery({ ...releasedQuery(patientId), enabled })

const paths: Record<ReleaseKind, string> = { result: 'results', document: 'documents', prescription: 'prescriptions' }

export type HoldKind = 'discuss' | 'withhold'
export const holdCategories = ['in_person', 'harm_patient', 'harm_other', 'awaiting_results', 'other'] as const
export type HoldCategory = (typeof holdCategories)[number]

/** A hold: its kind, the category of its reason, the reason, and the day by which a doctor reviews it (YYYY-MM-DD). */
export interface Hold {
  hold_kind: HoldKind
  category: HoldCategory
  reason: string
  review_by: string
}

/** Releases an item at the decision's version. */
export const releaseItem = (kind: ReleaseKind, id: number, version: number) => send<ReleaseStatus>('post', `/release/${paths[kind]}/${id}`, { action: 'release', version })

/** Holds an item at the decision's version; the form shows the server's field errors itself. */
export const holdItem = (kind: ReleaseKind, id: number, version: number, hold: Hold) =>
  send<ReleaseStatus>('post', `/release/${paths[kind]}/${id}`, { action: 'hold', version, ...hold }, { silent: true })

export const releaseSettingsKey = [...settingsKey, 'patient-release'] as const

export const releaseSettingsQuery = () => queryOptions({ queryKey: releaseSettingsKey, queryFn: () => get<ReleaseSettings>('/settings/patient-release') })

export const useReleaseSettings = () => useQuery(releaseSettingsQuery())

/** Saves the rules at the version read; the form shows the server's field errors itself. */
export const saveReleaseSettings = (v: Omit<ReleaseSettings, 'version'>, version: number) =>
  send<ReleaseSettings>('put', '/settings/patient-release', { ...v, version }, { silent: true })

/** saveReleaseSettings, and the settings' readers get the saved ones. */
export const useSaveReleaseSettings = () => useWrite(saveReleaseSettings, (queryClient, saved) => queryClient.setQueryData(releaseSettingsKey, saved))

/** What the patient's portal shows read again, after an item was released or held (the promise settles once it is). */
export function useRefreshRelease(patientId: number) {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: releaseKey(patientId) })
}
