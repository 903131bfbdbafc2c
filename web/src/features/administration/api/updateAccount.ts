import { send } from '../../../lib/api'
import type { Account, AccountInput } from './types'

/** Saves an account at the version read; the form shows the server's field errors itself. */
export const updateAccount = (id: number, v: AccountInput, version: number) => send<Account>('put', `/users/${id}`, { ...v, version }, { silent: true })
