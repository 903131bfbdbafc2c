import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { HoldsDue } from './types'

/** The holds from the portal whose review-by day has come, and whether the clinic's rule
 * releases a result once reviewed (ADR 45): the review queue shows both. Silent: a screen
 * without it still reviews (and then warns, as if the rule released). */
export const useHoldsDue = () =>
  useQuery({ queryKey: [...resultsKey, 'holds-due'], queryFn: () => get<HoldsDue>('/release/holds-due', undefined, { silent: true }) })
