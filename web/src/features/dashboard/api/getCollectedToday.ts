import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

export type CollectedToday = ResponseBody<'/api/reports/today', 'get'>

// Under the key the live channel refreshes: a payment anywhere (which announces an
// appointment change) re-reads the figure.
export const useCollectedToday = (enabled: boolean) => useQuery({ queryKey: [...billsKey, 'collected-today'], queryFn: () => get<CollectedToday>('/reports/today'), enabled })
