import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'
import { useWrite } from '../../../lib/write'
import { refreshMedicines } from './listMedicines'

/** Imports a CSV file of medicines; progress arrives on the live channel. */
export const importMedicines = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/medicines/import', fd)
}

/** importMedicines, then the catalogue re-reads. */
export const useImportMedicines = () => useWrite(importMedicines, refreshMedicines)
