import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'
import { useWrite } from '../../../lib/write'
import { analytesKey } from './resultsCatalogue'

export const importAnalytes = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/lab-analytes/import', fd)
}

/** importAnalytes, then the analytes re-read. */
export const useImportAnalytes = () => useWrite(importAnalytes, (queryClient) => queryClient.invalidateQueries({ queryKey: analytesKey }))
