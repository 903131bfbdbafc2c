import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { type MessageSettings, messageSettingsKey } from './messages'

export const messageSettingsQuery = () => queryOptions({ queryKey: messageSettingsKey, queryFn: () => get<MessageSettings>('/settings/patient-messages') })

export const useMessageSettings = () => useQuery(messageSettingsQuery())
