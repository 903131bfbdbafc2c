import { send } from '../../../lib/api'
import type { Profile } from './types'

/** Stores one's avatar or drawn/uploaded signature (multipart form data); the page shows a refusal itself. */
export const uploadImage = (kind: 'avatar' | 'signature', data: FormData) => send<Profile>('put', `/profile/${kind}`, data, { silent: true })
