import { send } from '../../../lib/api'
import { useImmunisationChange } from './change'
import type { ImmunisationRecord, RecordInput } from './types'

/** Records a dose given here or elsewhere, a refusal or a contraindication; the dialog shows a refusal itself. */
export const recordImmunisation = (patientId: number, input: RecordInput) => send<ImmunisationRecord>('post', `/patients/${patientId}/immunisations`, input, { silent: true })

export const useRecordImmunisation = (patientId: number) => useImmunisationChange(patientId, (input: RecordInput) => recordImmunisation(patientId, input))
