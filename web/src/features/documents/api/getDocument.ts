import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { documentsKey } from '../../../lib/queryKeys'
import type { ClinicalDocument } from './types'

export const documentQuery = (id: number) => queryOptions({ queryKey: [...documentsKey, 'one', id], queryFn: () => get<ClinicalDocument>(`/documents/${id}`), refetchOnWindowFocus: false })

export const useDocument = (id: number) => useQuery(documentQuery(id))
