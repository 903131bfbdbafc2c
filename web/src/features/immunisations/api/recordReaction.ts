import { useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { patientRecordQuery } from '../../../lib/patientRecord'
import { useImmunisationChange } from './change'
import type { Reaction, ReactionInput } from './types'

/** Records an adverse event after immunisation against its dose (an anaphylaxis may list its vaccine among the allergies too). */
export const recordReaction = (immunisationId: number, input: ReactionInput) => send<Reaction>('post', `/immunisations/${immunisationId}/reactions`, input, { silent: true })

/** Records a reaction; one that listed an allergy has the patient (the banner's allergies) read again too. */
export function useRecordReaction(patientId: number) {
  const queryClient = useQueryClient()
  return useImmunisationChange(patientId, async ({ id, input }: { id: number; input: ReactionInput }) => {
    const saved = await recordReaction(id, input)
    if (saved.allergy_added) void queryClient.invalidateQueries({ queryKey: patientRecordQuery(patientId).queryKey })
    return saved
  })
}
