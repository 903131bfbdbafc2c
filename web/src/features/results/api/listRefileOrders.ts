import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder } from './types'

/** The orders of patientId a misfiled value may be refiled to (same test, no value of its analyte yet). */
export const useRefileOrders = (resultId: number, patientId: number | undefined) =>
  useQuery({
    queryKey: [...resultsKey, 'misfiled', 'orders', resultId, patientId],
    queryFn: () => get<{ data: LabOrder[] }>(`/lab-results/${resultId}/misfiled/orders`, { patient_id: patientId }, { silent: true }).then((l) => l.data),
    enabled: !!patientId,
    retry: false,
  })
