// The safety check of a dose being recorded, asked as the form is filled: the findings (live
// vaccine in pregnancy or immunosuppression, a component the patient reacted to, an expired lot,
// a refusal or contraindication, too early, too close, twice today). Nothing is saved.
import { useQuery } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { immunisationChecksKey } from '../../../lib/queryKeys'
import type { Finding, RecordInput } from './types'

export const checkImmunisation = (patientId: number, input: RecordInput) =>
  send<{ findings: Finding[] | null }>('post', `/patients/${patientId}/immunisations/check`, input, { silent: true }).then((r) => r.findings ?? [])

/** The findings for input once a vaccine is chosen; the last answer stays shown while the next is asked. */
export const useImmunisationCheck = (patientId: number, input: RecordInput, enabled: boolean) =>
  useQuery({
    // Its own key, not under the patient's: a write that refreshes the record does not ask again.
    queryKey: [...immunisationChecksKey, patientId, input],
    queryFn: () => checkImmunisation(patientId, input),
    enabled,
    staleTime: 0,
    placeholderData: (previous) => previous,
  })
