import { send } from '../../../lib/api'
import type { AuthRequest } from './consent'

/** The user's answer; resolves to where the browser goes next (back to the app). */
export const answerConsent = (body: { request: AuthRequest; approve: boolean; scopes?: string[]; patient_id?: number }) =>
  send<{ redirect: string }>('post', '/smart/authorize', body)
