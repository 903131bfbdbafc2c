import { send } from '../../../lib/api'
import type { Medicine } from '../../../lib/types'
import { useWrite } from '../../../lib/write'
import { refreshMedicines } from './listMedicines'

/** Adds a medicine (no id) or changes one at the version read; the form shows the server's field errors itself. */
export const saveMedicine = (v: Record<string, string | boolean>, editing?: { id: number; version: number }) =>
  editing
    ? send<Medicine>('put', `/medicines/${editing.id}`, { ...v, version: editing.version }, { silent: true })
    : send<Medicine>('post', '/medicines', v, { silent: true })

/** saveMedicine, then the catalogue re-reads. */
export const useSaveMedicine = () => useWrite(saveMedicine, refreshMedicines)
