import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type MisfiledResult = Schema<'MisfiledResult'>

export interface MisfiledPage {
  data: MisfiledResult[]
  meta: { total: number; page: number; per_page: number }
}

/** A page of the results retracted as recorded against the wrong patient that wait for someone to find whose they were. */
export const useMisfiled = (page = 1, perPage = 15) =>
  useQuery({
    queryKey: [...resultsKey, 'misfiled', page, perPage],
    queryFn: () => get<MisfiledPage>('/results/misfiled', { page, per_page: perPage }),
    placeholderData: keepPreviousData,
  })
