// A patient's immunisations: the record, the reactions and the forecast, under the patient's key
// (the live channel's patient change refreshes it, as a write here does).
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { PatientImmunisations } from './types'

export const immunisationsQuery = (patientId: number) =>
  queryOptions({
    queryKey: [...patientsKey, patientId, 'immunisations'],
    queryFn: () => get<PatientImmunisations>(`/patients/${patientId}/immunisations`),
  })

export const useImmunisations = (patientId: number) => useQuery(immunisationsQuery(patientId))
