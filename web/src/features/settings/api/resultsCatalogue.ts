// The results catalogue's administration: analytes with their ranges, CSV export and import,
// and the critical-result settings.
import { useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { labTestsKey, servicesKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import type { ImportReport } from '../../../lib/types'
import { useWrite } from '../../../lib/write'

export type AnalyteEdit = Schema<'AnalyteEdit'>
export type ResultSettings = Schema<'ResultSettings'>

export const analytesKey = [...labTestsKey, 'analytes'] as const

export const useAnalytes = () => useQuery({ queryKey: analytesKey, queryFn: () => get<{ data: AnalyteEdit[] }>('/lab-analytes').then((l) => l.data) })

export const saveAnalyte = (a: AnalyteEdit) => send<AnalyteEdit>('put', `/lab-analytes/${encodeURIComponent(a.code!)}`, a, { silent: true })

export const importAnalytes = (file: File) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<ImportReport>('post', '/lab-analytes/import', fd)
}

export const EXPORT_HREF = '/api/lab-analytes/export'

export const resultSettingsKey = [...settingsKey, 'results'] as const
export const useResultSettings = () => useQuery({ queryKey: resultSettingsKey, queryFn: () => get<ResultSettings>('/settings/results') })
export const saveResultSettings = (s: ResultSettings) => send<ResultSettings>('put', '/settings/results', s, { silent: true })

export type TestDefinition = Schema<'TestDefinition'>

export const testDefinitionsKey = [...labTestsKey, 'definitions'] as const
export const useTestDefinitions = () =>
  useQuery({ queryKey: testDefinitionsKey, queryFn: () => get<{ data: TestDefinition[] }>('/lab-test-definitions').then((l) => l.data) })

export const saveTestDefinition = (d: TestDefinition) =>
  send<unknown>('put', `/lab-test-definitions/${encodeURIComponent(d.code!)}`, { loinc: d.loinc, turnaround_hours: d.turnaround_hours, service_code: d.service_code ?? '', analytes: d.analytes }, { silent: true })

/** The price list's codes and names, for linking a test to the service it is charged as
 * (empty for who may not read the price list: the code is then typed). */
export const usePriceListCodes = () =>
  useQuery({
    queryKey: [...servicesKey, 'codes'],
    queryFn: () => get<{ data: { code: string; name: string; active: boolean }[] }>('/services', { all: 1 }, { silent: true }).then((l) => l.data),
    retry: false,
  })

/** saveAnalyte, then the analytes re-read. */
export const useSaveAnalyte = () => useWrite(saveAnalyte, (queryClient) => queryClient.invalidateQueries({ queryKey: analytesKey }))

/** importAnalytes, then the analytes re-read. */
export const useImportAnalytes = () => useWrite(importAnalytes, (queryClient) => queryClient.invalidateQueries({ queryKey: analytesKey }))

/** saveResultSettings, and the settings' readers get the saved ones. */
export const useSaveResultSettings = () => useWrite(saveResultSettings, (queryClient, saved) => queryClient.setQueryData(resultSettingsKey, saved))

/** saveTestDefinition, then every view of the lab tests re-reads. */
export const useSaveTestDefinition = () => useWrite(saveTestDefinition, (queryClient) => queryClient.invalidateQueries({ queryKey: labTestsKey }))
