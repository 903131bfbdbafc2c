import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'
import type { ResultSettings } from './types'

/** Saves the clinic's results settings. */
export const useSaveResultSettings = () => useResultsMutation((s: ResultSettings) => send<ResultSettings>('put', '/settings/results', s, { silent: true }))
