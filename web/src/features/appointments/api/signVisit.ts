import { send } from '../../../lib/api'
import type { Visit } from './types'

/** Signs the visit: it becomes read-only; later changes are amendments. */
export const signVisit = (id: number, version: number) => send<Visit>('post', `/appointments/${id}/visit/sign`, { version }, { silent: true })
