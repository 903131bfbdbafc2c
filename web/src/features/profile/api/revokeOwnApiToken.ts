import { send } from '../../../lib/api'
import type { ApiToken } from './types'

/** Revokes one of the caller's own tokens at once. */
export const revokeOwnApiToken = (id: number) => send<ApiToken>('delete', `/profile/api-tokens/${id}`)
