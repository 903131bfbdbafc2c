import { send } from '../../../lib/api'
import type { Clinic } from '../../../lib/clinic'

/** Saves the clinic's header at the version read; the form shows the server's field errors itself. */
export const saveClinic = (v: Omit<Clinic, 'version'>, version: number) => send<Clinic>('put', '/settings/clinic', { ...v, version }, { silent: true })
