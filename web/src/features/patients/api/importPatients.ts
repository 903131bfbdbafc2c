import { send } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import { useWrite } from '../../../lib/write'
import type { PatientImportReport } from './types'

/** Loads a register file (CSV, NDJSON or a FHIR Bundle); a dry run checks it and writes nothing. */
export const importPatients = (file: File, dryRun: boolean) => {
  const fd = new FormData()
  fd.append('file', file, file.name)
  return send<PatientImportReport>('post', `/patients/import${dryRun ? '?dry_run=1' : ''}`, fd)
}

/** importPatients, and after a real import (not a dry run) every view of patients reads again. */
export const useImportPatients = () =>
  useWrite(importPatients, (queryClient, _report, _file, dryRun) => {
    if (!dryRun) void queryClient.invalidateQueries({ queryKey: patientsKey })
  })
