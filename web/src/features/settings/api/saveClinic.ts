import { send } from '../../../lib/api'
import { clinicKey, type Clinic } from '../../../lib/clinic'
import { useWrite } from '../../../lib/write'

/** Saves the clinic's header at the version read; the form shows the server's field errors itself. */
export const saveClinic = (v: Omit<Clinic, 'version'>, version: number) => send<Clinic>('put', '/settings/clinic', { ...v, version }, { silent: true })

/** saveClinic, and every reader of the clinic's header gets the saved one. */
export const useSaveClinic = () => useWrite(saveClinic, (queryClient, saved) => queryClient.setQueryData(clinicKey, saved))
