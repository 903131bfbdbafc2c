import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { Trend } from './types'

/** An analyte's values for a patient, from a day on. */
export const useTrend = (patientId: number, analyte: string | undefined, from: string) =>
  useQuery({
    queryKey: [...resultsKey, 'trend', patientId, analyte, from],
    queryFn: () => get<Trend>(`/patients/${patientId}/trend`, { analyte, from }),
    enabled: !!analyte,
  })
