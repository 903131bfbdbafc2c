import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder, List } from './types'

/** The results waiting for the caller's review. */
export const useReviewQueue = (enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'review'], queryFn: () => get<List<LabOrder>>('/results/review').then((l) => l.data), enabled })
