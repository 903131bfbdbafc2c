import { send } from '../../../lib/api'
import type { Account } from './types'

/** Forgets the failed logins that throttle the account. */
export const unlockAccount = (id: number) => send<Account>('post', `/users/${id}/unlock`)
