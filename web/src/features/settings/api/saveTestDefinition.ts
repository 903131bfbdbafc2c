import { send } from '../../../lib/api'
import { labTestsKey } from '../../../lib/queryKeys'
import { useWrite } from '../../../lib/write'
import type { TestDefinition } from './resultsCatalogue'

export const saveTestDefinition = (d: TestDefinition) =>
  send<unknown>('put', `/lab-test-definitions/${encodeURIComponent(d.code!)}`, { loinc: d.loinc, turnaround_hours: d.turnaround_hours, service_code: d.service_code ?? '', analytes: d.analytes }, { silent: true })

/** saveTestDefinition, then every view of the lab tests re-reads. */
export const useSaveTestDefinition = () => useWrite(saveTestDefinition, (queryClient) => queryClient.invalidateQueries({ queryKey: labTestsKey }))
