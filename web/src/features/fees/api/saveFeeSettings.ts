import { send } from '../../../lib/api'
import { servicesKey } from '../../../lib/queryKeys'
import { useWrite } from '../../../lib/write'
import type { FeeSettings } from './types'

/** Saves the fee settings at the version read; the form shows the server's field errors itself. */
export const saveFeeSettings = (v: Pick<FeeSettings, 'currency' | 'consultation' | 'drawer_difference_limit'>, version: number) =>
  send<FeeSettings>('put', '/fees/settings', { ...v, version }, { silent: true })

/** saveFeeSettings, then the settings and the price list read again. */
export const useSaveFeeSettings = () => useWrite(saveFeeSettings, (queryClient) => queryClient.invalidateQueries({ queryKey: servicesKey }))
