import { send } from '../../../lib/api'
import type { ApiToken } from './types'

/** Revokes a token: refused at once by every instance. */
export const revokeApiToken = (id: number) => send<ApiToken>('delete', `/api-tokens/${id}`)
