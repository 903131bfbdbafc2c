import { queryOptions, useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { RequestBody, Schema } from '../../../lib/schema'
import { useAppointmentMutation } from './mutation'

export type BookingRequest = Schema<'BookingRequest'>
export type AcceptBody = RequestBody<'/api/booking-requests/{id}/accept', 'post'>

/** The online booking requests waiting for the desk on a day (under the appointments' key: live events refresh them). */
export const useBookingRequests = (date: string, enabled: boolean) =>
  useQuery(
    queryOptions({
      queryKey: [...appointmentsKey, 'booking-requests', date],
      queryFn: async () => (await get<{ data: BookingRequest[] }>('/booking-requests', { from: date, to: date })).data,
      enabled,
    }),
  )

export const useAcceptBooking = () =>
  useAppointmentMutation(({ r, body }: { r: BookingRequest; body: Omit<AcceptBody, 'version'> }) =>
    send<BookingRequest>('post', `/booking-requests/${r.id}/accept`, { ...body, version: r.version }),
  )

export const useDeclineBooking = () =>
  useAppointmentMutation(({ r, reason }: { r: BookingRequest; reason: string }) => send<BookingRequest>('post', `/booking-requests/${r.id}/decline`, { version: r.version, reason }))
