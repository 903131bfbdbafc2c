import { queryOptions } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'

/** Patients matching q, for choosing the one a standalone app opens. */
export const findPatients = async (q: string) =>
  (await get<{ data: { id: number; mrn: string; first_name: string; middle_name: string; last_name: string; birth_date: string }[] }>('/patients', { q, per_page: 20 })).data

export const findPatientsQuery = (q: string) => queryOptions({ queryKey: [...patientsKey, 'smart-choice', q], queryFn: () => findPatients(q) })
