import { send } from '../../../lib/api'

/** Sends a failed message again. */
export const resendMessage = (id: number) => send<void>('post', `/messages/${id}/resend`)
