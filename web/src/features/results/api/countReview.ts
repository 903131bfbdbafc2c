import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'

/** How many results wait for the caller's review (the dashboard's figure, without the page). */
export const useReviewCount = (enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'review', 'count'], queryFn: () => get<{ count: number }>('/results/review/count').then((r) => r.count), enabled })
