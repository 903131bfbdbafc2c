import { send } from '../../../lib/api'
import type { Account } from './types'

/** Removes the account's second factor (a lost phone). */
export const resetAccountTwoFactor = (id: number) => send<Account>('post', `/users/${id}/two-factor/reset`)
