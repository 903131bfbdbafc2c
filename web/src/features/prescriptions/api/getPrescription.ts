import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { prescriptionsKey } from '../../../lib/queryKeys'
import type { Prescription } from './types'

export const getPrescription = (id: number) => get<Prescription>(`/prescriptions/${id}`)

export const prescriptionQuery = (id: number) =>
  queryOptions({ queryKey: [...prescriptionsKey, 'one', id], queryFn: () => getPrescription(id), refetchOnWindowFocus: false })

export const usePrescription = (id: number) => useQuery(prescriptionQuery(id))
