import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type BookingRequest = Schema<'BookingRequest'>

/** The online booking requests waiting for the desk on a day (under the appointments' key: live events refresh them). */
export const useBookingRequests = (date: string, enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: [...appointmentsKey, 'booking-requests', date],
      queryFn: async () => (await get<{ data: BookingRequest[] }>('/booking-requests', { from: date, to: date })).data,
      enabled,
    }),
  )
