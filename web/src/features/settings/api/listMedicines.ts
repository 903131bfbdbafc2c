import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { Medicine } from '../../../lib/types'
import { medicinesKey } from '../../../lib/queryKeys'

export interface MedicinesParams {
  q: string
  page: number
  per_page: number
}

/** The whole catalogue, withdrawn medicines too (all=1), a page at a time. */
export const listMedicines = (p: MedicinesParams) => get<{ data: Medicine[]; meta: { total: number } }>('/medicines', { ...p, all: 1 })

export const medicinesQuery = (p: MedicinesParams) =>
  queryOptions({ queryKey: [...medicinesKey, 'list', p], queryFn: () => listMedicines(p), placeholderData: keepPreviousData })

export const useMedicines = (p: MedicinesParams) => useQuery(medicinesQuery(p))

/** After a change to the catalogue (a save, an import): every page of it re-reads. */
export const refreshMedicines = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: medicinesKey })
