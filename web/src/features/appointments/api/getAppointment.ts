import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { Appointment } from './types'

export const getAppointment = (id: number) => get<Appointment>(`/appointments/${id}`)

export const appointmentQuery = (id: number) => queryOptions({ queryKey: [...appointmentsKey, 'one', id], queryFn: () => getAppointment(id) })

export const useAppointment = (id: number) => useQuery(appointmentQuery(id))
