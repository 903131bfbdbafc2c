import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { PatientMessage } from '../../../lib/patientMessages'
import { appointmentsKey } from '../../../lib/queryKeys'

/** The messages about one appointment and what became of each (refreshed with the appointments). */
export const appointmentMessagesQuery = (id: number) =>
  queryOptions({
    queryKey: [...appointmentsKey, 'messages', id],
    queryFn: () => get<{ data: PatientMessage[] }>(`/appointments/${id}/messages`).then((r) => r.data),
  })

export const useAppointmentMessages = (id: number | undefined) => useQuery({ ...appointmentMessagesQuery(id ?? 0), enabled: id !== undefined })
