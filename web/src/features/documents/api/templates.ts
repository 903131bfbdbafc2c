import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { documentTemplatesKey } from '../../../lib/queryKeys'
import type { DocumentTemplate } from './types'

// Templates live under the patients' key with the documents: a change announced for patients
// refreshes both (the server announces issuing and cancelling that way).
export const templatesKey = documentTemplatesKey

/** The templates: active ones, or all for those who manage them. */
export const templatesQuery = (all: boolean) =>
  queryOptions({ queryKey: [...templatesKey, all], queryFn: () => get<{ data: DocumentTemplate[] }>('/document-templates', all ? { all: '1' } : {}).then((r) => r.data) })

export const useTemplates = (all = false) => useQuery(templatesQuery(all))
