import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

export type TestToday = ResponseBody<'/api/appointments/{id}/tests-today', 'get'>['data'][number]

/** The tests the visit's patient had ordered or resulted at other visits that day, by code. */
export const testsTodayQuery = (appointmentId: number) =>
  queryOptions({
    queryKey: [...appointmentsKey, appointmentId, 'tests-today'],
    queryFn: async () => (await get<{ data: TestToday[] }>(`/appointments/${appointmentId}/tests-today`)).data,
  })

export const useTestsToday = (appointmentId: number) => useQuery(testsTodayQuery(appointmentId))
