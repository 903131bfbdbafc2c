import { send } from '../../../lib/api'
import type { Enrolment } from './types'

/** Makes a new secret for the authenticator app; it is on only once confirmed. */
export const setUpTwoFactor = () => send<Enrolment>('post', '/profile/two-factor/setup')
