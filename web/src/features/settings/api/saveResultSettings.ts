import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { type ResultSettings, resultSettingsKey } from './resultsCatalogue'

export const saveResultSettings = (s: ResultSettings) => send<ResultSettings>('put', '/settings/results', s, { silent: true })

/** saveResultSettings, and the settings' readers get the saved ones. */
export const useSaveResultSettings = () => useWrite(saveResultSettings, (queryClient, saved) => queryClient.setQueryData(resultSettingsKey, saved))
