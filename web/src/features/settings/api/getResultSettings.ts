import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { type ResultSettings, resultSettingsKey } from './resultsCatalogue'

export const useResultSettings = () => useQuery({ queryKey: resultSettingsKey, queryFn: () => get<ResultSettings>('/settings/results') })
