import { send } from '../../../lib/api'
import type { RequestBody } from '../../../lib/schema'
import type { BookingRequest } from './bookingRequests'
import { useAppointmentMutation } from './mutation'

export type AcceptBody = RequestBody<'/api/booking-requests/{id}/accept', 'post'>

export const useAcceptBooking = () =>
  useAppointmentMutation(({ r, body }: { r: BookingRequest; body: Omit<AcceptBody, 'version'> }) =>
    send<BookingRequest>('post', `/booking-requests/${r.id}/accept`, { ...body, version: r.version }),
  )
