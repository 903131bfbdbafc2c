import { send } from '../../../lib/api'
import { useImmunisationChange } from './change'
import type { Reaction, ReactionInput } from './types'

/** Records an adverse event after immunisation against its dose. */
export const recordReaction = (immunisationId: number, input: ReactionInput) => send<Reaction>('post', `/immunisations/${immunisationId}/reactions`, input, { silent: true })

export const useRecordReaction = (patientId: number) => useImmunisationChange(patientId, ({ id, input }: { id: number; input: ReactionInput }) => recordReaction(id, input))
