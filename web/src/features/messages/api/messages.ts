import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { patientMessagesKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import { useWrite } from '../../../lib/write'

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

/** Sends a failed message again. */
export const resendMessage = (id: number) => send<void>('post', `/messages/${id}/resend`)

export const messageSettingsKey = [...settingsKey, 'patient-messages'] as const

export const messageSettingsQuery = () => queryOptions({ queryKey: messageSettingsKey, queryFn: () => get<MessageSettings>('/settings/patient-messages') })

export const useMessageSettings = () => useQuery(messageSettingsQuery())

/** Saves the rules at the version read; the form shows the server's field errors itself. */
export const saveMessageSettings = (v: Omit<MessageSettings, 'version'>, version: number) =>
  send<MessageSettings>('put', '/settings/patient-messages', { ...v, version }, { silent: true })

/** saveMessageSettings, and the settings' readers get the saved ones. */
export const useSaveMessageSettings = () => useWrite(saveMessageSettings, (queryClient, saved) => queryClient.setQueryData(messageSettingsKey, saved))

/** The messages read again (after a resend; the promise settles once they are). */
export function useRefreshMessages() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: patientMessagesKey })
}
