import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { type AnalyteEdit, analytesKey } from './resultsCatalogue'

export const saveAnalyte = (a: AnalyteEdit) => send<AnalyteEdit>('put', `/lab-analytes/${encodeURIComponent(a.code!)}`, a, { silent: true })

/** saveAnalyte, then the analytes re-read. */
export const useSaveAnalyte = () => useWrite(saveAnalyte, (queryClient) => queryClient.invalidateQueries({ queryKey: analytesKey }))
