import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { AppointmentFigures } from './types'

/** Today's appointments by status, the waiting room, the doctor's own queue, 30 days. */
export const getAppointmentFigures = () => get<AppointmentFigures>('/dashboard/appointments')

// Under the key the live channel refreshes: a change anywhere re-reads these figures.
export const appointmentFiguresQuery = () => queryOptions({ queryKey: [...appointmentsKey, 'dashboard'], queryFn: getAppointmentFigures })

export const useAppointmentFigures = (enabled: boolean) => useQuery({ ...appointmentFiguresQuery(), enabled })
