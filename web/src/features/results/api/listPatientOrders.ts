import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'
import type { LabOrder, List } from './types'

/** A patient's lab orders. */
export const usePatientOrders = (patientId: number, enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'patient', patientId], queryFn: () => get<List<LabOrder>>(`/patients/${patientId}/orders`).then((l) => l.data), enabled })
