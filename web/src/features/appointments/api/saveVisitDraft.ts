import { send } from '../../../lib/api'
import type { Visit, VisitContent } from './types'

/** Saves the visit's draft at the version read (autosave); the form shows the errors itself. */
export const saveVisitDraft = (id: number, content: VisitContent, version: number) =>
  send<Visit>('put', `/appointments/${id}/visit`, { ...content, version }, { silent: true })
