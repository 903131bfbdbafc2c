import { send } from '../../../lib/api'
import type { Account } from './types'

export interface EmergencyGrant {
  permissions: string[]
  hours: number
  reason: string
}

/** Grants emergency access; the form shows the server's field errors itself. */
export const grantEmergency = (id: number, v: EmergencyGrant) => send<Account>('post', `/users/${id}/emergency-access`, v, { silent: true })
