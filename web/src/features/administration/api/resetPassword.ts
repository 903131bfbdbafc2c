import { send } from '../../../lib/api'

/** Gives the account a temporary password, shown once, to be changed at the next login. */
export const resetPassword = (id: number) => send<{ temporary_password: string }>('post', `/users/${id}/reset-password`)
