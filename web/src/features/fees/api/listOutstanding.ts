import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { ResponseBody } from '../../../lib/schema'
import { reportsKey } from './reports'

type Owed = ResponseBody<'/api/reports/outstanding', 'get'>

export const useOutstanding = (page: number, perPage: number) =>
  useQuery(queryOptions({ queryKey: [...reportsKey, 'outstanding', page, perPage], queryFn: () => get<Owed>('/reports/outstanding', { page, per_page: perPage }) }))
