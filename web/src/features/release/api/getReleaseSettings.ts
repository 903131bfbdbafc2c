import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { type ReleaseSettings, releaseSettingsKey } from './release'

export const releaseSettingsQuery = () => queryOptions({ queryKey: releaseSettingsKey, queryFn: () => get<ReleaseSettings>('/settings/patient-release') })

export const useReleaseSettings = () => useQuery(releaseSettingsQuery())
