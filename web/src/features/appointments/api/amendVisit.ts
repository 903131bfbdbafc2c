import { send } from '../../../lib/api'
import type { Visit, VisitContent } from './types'

/** Amends a signed visit with a reason; the original is kept. */
export const amendVisit = (id: number, content: VisitContent, version: number, reason: string) =>
  send<Visit>('post', `/appointments/${id}/visit/amend`, { ...content, version, reason }, { silent: true })
