import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type MisfiledResult = Schema<'MisfiledResult'>

/** The results retracted as recorded against the wrong patient that wait for someone to find whose they were. */
export const useMisfiled = () =>
  useQuery({ queryKey: [...resultsKey, 'misfiled'], queryFn: () => get<{ data: MisfiledResult[] }>('/results/misfiled').then((l) => l.data) })
