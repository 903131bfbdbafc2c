import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { ResultSettings } from './types'

/** The clinic's results settings. */
export const useResultSettings = () => useQuery({ queryKey: [...resultsKey, 'settings'], queryFn: () => get<ResultSettings>('/settings/results') })
