import { send } from '../../../lib/api'
import { useImmunisationChange } from './change'
import type { Outcome, Reaction } from './types'

export interface FollowUp {
  reported_on: string
  reported_to: string
  outcome: Outcome | ''
}

/** Records what was learnt of a reaction after it was saved (its report, its outcome), at the version read; a stale one is refused (409). */
export const followUpReaction = (x: Reaction, f: FollowUp) => send<Reaction>('post', `/immunisation/reactions/${x.id}/follow-up`, { ...f, version: x.version }, { silent: true })

export const useFollowUpReaction = (patientId: number) => useImmunisationChange(patientId, ({ x, f }: { x: Reaction; f: FollowUp }) => followUpReaction(x, f))
