import { queryOptions, useQuery } from '@tanstack/react-query'
import { ApiError, get } from '../../../lib/api'
import { billsKey } from '../../../lib/queryKeys'
import type { Bill } from './types'

/** A visit's bill in force; null while it has none (the first charge writes it). */
export const visitBillQuery = (appointmentId: number) =>
  queryOptions({
    queryKey: [...billsKey, 'visit-bill', appointmentId],
    queryFn: async () => {
      try {
        return await get<Bill>(`/appointments/${appointmentId}/bill`, undefined, { silent: true })
      } catch (e) {
        if (e instanceof ApiError && e.code === 'billing.no_bill') return null
        throw e
      }
    },
  })

export const useVisitBill = (appointmentId: number) => useQuery(visitBillQuery(appointmentId))
