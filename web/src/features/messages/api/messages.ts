import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientMessagesKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type LogEntry = Schema<'PatientMessageLogEntry'>

export type MessageSettings = Schema<'PatientMessageSettings'>

export interface LogFilter {
  status?: string
  channel?: string
  from?: string
  to?: string
  before?: number
}

/** One page of the message log (newest first); next is the id to pass as before for the next page. */
export const messageLogQuery = (f: LogFilter) =>
  queryOptions({
    queryKey: [...patientMessagesKey, 'log', f],
    queryFn: () => get<{ data: LogEntry[]; next: number }>('/messages', { ...f }),
  })

export const useMessageLog = (f: LogFilter) => useQuery(messageLogQuery(f))

export const messageSettingsKey = [...settingsKey, 'patient-messages'] as const

/** The messages read again (after a resend; the promise settles once they are). */
export function useRefreshMessages() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: patientMessagesKey })
}
