import { send } from '../../../lib/api'
import type { ApiClient } from './types'

/** Revokes a backend client: its access tokens stop at once. */
export const revokeApiClient = (id: number) => send<ApiClient>('delete', `/api-clients/${id}`)
