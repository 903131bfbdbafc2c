import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'

/** Imports a CSV file of medicines; progress arrives on the live channel. */
export const importMedicines = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/medicines/import', fd)
}
