import { send } from '../../../lib/api'
import type { ApiClient, ApiClientInput } from './types'

/** Registers a backend client with its public keys and system/ scopes. */
export const registerApiClient = (v: ApiClientInput) => send<ApiClient>('post', '/api-clients', v)
