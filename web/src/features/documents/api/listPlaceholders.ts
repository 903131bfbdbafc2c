import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { ResponseBody } from '../../../lib/schema'
import { templatesKey } from './templates'

export type PlaceholderList = ResponseBody<'/api/document-templates/placeholders', 'get'>

export const usePlaceholders = () =>
  useQuery(queryOptions({ queryKey: [...templatesKey, 'placeholders'], queryFn: () => get<PlaceholderList>('/document-templates/placeholders'), staleTime: Infinity }))
