import { send } from '../../../lib/api'

/** Turns two-factor sign-in on with a first code; answers the recovery codes, shown once. */
export const confirmTwoFactor = (code: string) => send<{ recovery_codes: string[] }>('post', '/profile/two-factor/confirm', { code }, { silent: true })
