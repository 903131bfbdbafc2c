import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { templatesKey } from './templates'
import type { DocumentTemplate } from './types'

export const useTemplate = (id: number | undefined) =>
  useQuery(queryOptions({ queryKey: [...templatesKey, 'one', id], queryFn: () => get<DocumentTemplate>(`/document-templates/${id}`), enabled: id !== undefined, refetchOnWindowFocus: false }))
