import { send } from '../../../lib/api'
import type { CreatedApiToken, OwnApiTokenInput } from './types'

/** Makes a token for the caller, who gives their password (and code) again: the answer holds the token, shown once. */
export const createOwnApiToken = (v: OwnApiTokenInput) => send<CreatedApiToken>('post', '/profile/api-tokens', v)
