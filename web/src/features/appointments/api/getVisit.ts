import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { visitsKey } from '../../../lib/queryKeys'
import type { Visit } from './types'

export const getVisit = (id: number) => get<Visit>(`/appointments/${id}/visit`)

export const visitQuery = (id: number) => queryOptions({ queryKey: [...visitsKey, id], queryFn: () => getVisit(id), refetchOnWindowFocus: false })

export const useVisit = (id: number) => useQuery(visitQuery(id))
