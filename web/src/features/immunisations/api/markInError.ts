import { send } from '../../../lib/api'
import { useImmunisationChange } from './change'
import type { ImmunisationRecord } from './types'

/** Marks a record entered in error (wrong patient, wrong vaccine), for a reason; a stale version is refused (409). */
export const markInError = (r: ImmunisationRecord, reason: string) => send<ImmunisationRecord>('post', `/immunisations/${r.id}/entered-in-error`, { reason, version: r.version }, { silent: true })

export const useMarkInError = (patientId: number) => useImmunisationChange(patientId, ({ r, reason }: { r: ImmunisationRecord; reason: string }) => markInError(r, reason))
