import { send } from '../../../lib/api'
import type { ApiTokenInput, CreatedApiToken } from './types'

/** Makes a token for an account: the answer holds the token itself, shown this once. */
export const createApiToken = (v: ApiTokenInput) => send<CreatedApiToken>('post', '/api-tokens', v)
