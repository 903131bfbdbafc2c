import { send } from '../../../lib/api'

/** Turns two-factor sign-in off with the password and a code. */
export const turnOffTwoFactor = (v: { password: string; code: string }) => send<void>('post', '/profile/two-factor/disable', v, { silent: true })
