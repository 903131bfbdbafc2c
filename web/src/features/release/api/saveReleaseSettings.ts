import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { type ReleaseSettings, releaseSettingsKey } from './release'

/** Saves the rules at the version read; the form shows the server's field errors itself. */
export const saveReleaseSettings = (v: Omit<ReleaseSettings, 'version'>, version: number) =>
  send<ReleaseSettings>('put', '/settings/patient-release', { ...v, version }, { silent: true })

/** saveReleaseSettings, and the settings' readers get the saved ones. */
export const useSaveReleaseSettings = () => useWrite(saveReleaseSettings, (queryClient, saved) => queryClient.setQueryData(releaseSettingsKey, saved))
