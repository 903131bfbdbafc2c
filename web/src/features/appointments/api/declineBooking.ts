import { send } from '../../../lib/api'
import type { BookingRequest } from './bookingRequests'
import { useAppointmentMutation } from './mutation'

export const useDeclineBooking = () =>
  useAppointmentMutation(({ r, reason }: { r: BookingRequest; reason: string }) => send<BookingRequest>('post', `/booking-requests/${r.id}/decline`, { version: r.version, reason }))
