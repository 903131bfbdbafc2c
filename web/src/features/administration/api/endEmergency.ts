import { send } from '../../../lib/api'
import type { Account } from './types'

/** Ends the account's emergency access now. */
export const endEmergency = (id: number) => send<Account>('delete', `/users/${id}/emergency-access`)
