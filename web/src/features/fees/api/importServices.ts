import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'

/** Imports a CSV price list: new codes are added, known ones updated. */
export const importServices = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/services/import', fd)
}
