import { send } from '../../../lib/api'
import type { Bill } from './types'

/** Opens the visit's bill (with the consultation fee of its type, when the settings name one). */
export const openVisitBill = (appointmentId: number) => send<Bill>('post', `/appointments/${appointmentId}/bill`, {})
