import { get } from '../../../lib/api'

/** The spec's remove-signature/{id}: a GET that changes state (it carries the CSRF header). */
export const removeSignature = (userId: number) => get<void>(`/remove-signature/${userId}`)
