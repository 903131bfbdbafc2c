import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { releaseKey } from './release'

export type ReleasedItem = Schema<'ReleasedItem'>

/** What the patient sees, as they see it. */
export const releasedQuery = (patientId: number) =>
  queryOptions({ queryKey: [...releaseKey(patientId), 'released'], queryFn: () => get<{ data: ReleasedItem[] }>(`/patients/${patientId}/released`).then((r) => r.data) })

export const useReleased = (patientId: number, enabled: boolean) => useQuery({ ...releasedQuery(patientId), enabled })
