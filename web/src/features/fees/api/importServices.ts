import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'

/** Imports a CSV price list: new codes are added, known ones updated. */
export const importServices = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/services/import', fd)
}

/** Adds the starter services the list lacks, named in the user's language, at price 0. */
export const installStarter = () => send<{ added: number }>('post', '/services/starter', {})
