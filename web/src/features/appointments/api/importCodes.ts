import { useMutation } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { ImportReport } from '../../../lib/types'

/** Imports a CSV file of diagnosis codes; progress arrives on the live channel. */
export const importCodes = (file: File) => {
  const form = new FormData()
  form.append('file', file)
  return send<ImportReport>('post', '/diagnosis-codes/import', form)
}

export const useImportCodes = () => useMutation({ mutationFn: importCodes })
