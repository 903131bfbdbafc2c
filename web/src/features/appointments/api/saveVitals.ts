import { send } from '../../../lib/api'
import type { Visit, Vitals } from './types'

/** Saves the visit's vitals alone (a nurse's part) at the version read. */
export const saveVitals = (id: number, vitals: Vitals, version: number) =>
  send<Visit>('put', `/appointments/${id}/visit/vitals`, { vitals, version }, { silent: true })
