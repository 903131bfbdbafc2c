import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { CriticalAlert, List } from './types'

/** The critical alerts for the caller. */
export const useAlerts = (enabled: boolean) =>
  useQuery({
    queryKey: [...resultsKey, 'alerts'],
    queryFn: () => get<List<CriticalAlert>>('/results/alerts', undefined, { silent: true }).then((l) => l.data),
    enabled,
    // The live channel refreshes it at once; the interval is the fallback when push is down.
    refetchInterval: 60_000,
    refetchIntervalInBackground: true,
  })

/** The alerts still to acknowledge, and those withdrawn (their value no longer stands; kept
 * until their follow-up is recorded, to tell whoever heard of the value that it is gone). */
export function splitAlerts(alerts: CriticalAlert[] | undefined): { open: CriticalAlert[]; withdrawn: CriticalAlert[]; misfiled: CriticalAlert[] } {
  const all = alerts ?? []
  return {
    open: all.filter((a) => !a.withdrawn_at && !a.misfiled),
    withdrawn: all.filter((a) => a.withdrawn_at && !a.misfiled),
    // A critical value recorded against the wrong patient whose owner is not yet found: resolved on the misfiled list, never acknowledged.
    misfiled: all.filter((a) => a.misfiled),
  }
}
