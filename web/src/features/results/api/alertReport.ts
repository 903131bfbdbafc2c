import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { CriticalAlert, List } from './types'

/** The critical alerts of a period, and how each was handled (the report). */
export const useAlertReport = (from: string, to: string) =>
  useQuery({ queryKey: [...resultsKey, 'report', from, to], queryFn: () => get<List<CriticalAlert>>('/results/alerts/report', { from, to }).then((l) => l.data) })
