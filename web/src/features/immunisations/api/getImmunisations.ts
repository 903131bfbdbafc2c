// A patient's immunisations: the record, the reactions and the forecast, under the patient's key
// (the live channel's patient change refreshes it, as a write here does).
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { PatientImmunisations } from './types'

/** The record with every list a list (the server may leave an empty one out as null). */
export function normalise(p: PatientImmunisations): PatientImmunisations {
  return {
    ...p,
    records: (p.records ?? []).map((r) => ({ ...r, antigens: r.antigens ?? [], overridden: r.overridden ?? [] })),
    reactions: p.reactions ?? [],
    schedules: p.schedules ?? [],
    forecast: {
      as_of: p.forecast?.as_of ?? p.as_of,
      evaluations: p.forecast?.evaluations ?? [],
      recommendations: (p.forecast?.recommendations ?? []).map((r) => ({ ...r, vaccines: r.vaccines ?? [] })),
    },
  }
}

export const immunisationsQuery = (patientId: number) =>
  queryOptions({
    queryKey: [...patientsKey, patientId, 'immunisations'],
    queryFn: () => get<PatientImmunisations>(`/patients/${patientId}/immunisations`).then(normalise),
  })

export const useImmunisations = (patientId: number) => useQuery(immunisationsQuery(patientId))
