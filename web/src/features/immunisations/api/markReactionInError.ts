import { send } from '../../../lib/api'
import { useImmunisationChange } from './change'
import type { Reaction } from './types'

/** Marks a reaction entered in error (recorded against the wrong dose or child), for a reason; a stale version is refused (409). */
export const markReactionInError = (x: Reaction, reason: string) => send<Reaction>('post', `/immunisation/reactions/${x.id}/entered-in-error`, { reason, version: x.version }, { silent: true })

export const useMarkReactionInError = (patientId: number) => useImmunisationChange(patientId, ({ x, reason }: { x: Reaction; reason: string }) => markReactionInError(x, reason))
