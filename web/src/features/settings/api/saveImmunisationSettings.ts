import { send } from '../../../lib/api'
import { immunisationCatalogueKey } from '../../../lib/queryKeys'
import { useWrite } from '../../../lib/write'
import { type ImmunisationSettings, immunisationSettingsKey } from './immunisationSettings'

/** Saves the whole settings at the version read; the page shows the server's field errors and a conflict itself. */
export const saveImmunisationSettings = (v: ImmunisationSettings) => send<ImmunisationSettings>('put', '/immunisation/settings', v, { silent: true })

/** saveImmunisationSettings; the settings' readers get the saved ones, and the catalogue (which carries the clinic's schedules and stock) is read again. */
export const useSaveImmunisationSettings = () =>
  useWrite(saveImmunisationSettings, (queryClient, saved) => {
    queryClient.setQueryData(immunisationSettingsKey, saved)
    return queryClient.invalidateQueries({ queryKey: immunisationCatalogueKey })
  })
