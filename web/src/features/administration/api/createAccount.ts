import { send } from '../../../lib/api'
import type { Account, NewAccount } from './types'

/** Creates an account; the form shows the server's field errors itself. */
export const createAccount = (v: NewAccount) => send<Account>('post', '/users', v, { silent: true })
