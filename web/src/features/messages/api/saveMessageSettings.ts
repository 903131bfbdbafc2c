import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { type MessageSettings, messageSettingsKey } from './messages'

/** Saves the rules at the version read; the form shows the server's field errors itself. */
export const saveMessageSettings = (v: Omit<MessageSettings, 'version'>, version: number) =>
  send<MessageSettings>('put', '/settings/patient-messages', { ...v, version }, { silent: true })

/** saveMessageSettings, and the settings' readers get the saved ones. */
export const useSaveMessageSettings = () => useWrite(saveMessageSettings, (queryClient, saved) => queryClient.setQueryData(messageSettingsKey, saved))
