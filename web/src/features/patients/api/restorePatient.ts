import { send } from '../../../lib/api'
import type { Patient } from './types'

/** Brings an archived patient back onto the register. */
export const restorePatient = (id: number) => send<Patient>('post', `/patients/${id}/restore`)
