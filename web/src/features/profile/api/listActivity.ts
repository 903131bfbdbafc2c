import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { profileKey } from '../../../lib/queryKeys'
import type { Activity } from './types'

/** The user's own last audit events. */
export const listActivity = async () => (await get<{ data: Activity[] }>('/profile/activity')).data

export const activityQuery = () => queryOptions({ queryKey: [...profileKey, 'activity'], queryFn: listActivity })

export const useActivity = () => useQuery(activityQuery())
