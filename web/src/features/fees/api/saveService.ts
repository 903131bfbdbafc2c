import { send } from '../../../lib/api'
import type { Service } from './types'

/** Adds a service (no id) or changes one at the version read; the form shows the server's field errors itself. */
export const saveService = (v: Omit<Service, 'id' | 'version'>, editing?: { id: number; version: number }) =>
  editing
    ? send<Service>('put', `/services/${editing.id}`, { ...v, version: editing.version }, { silent: true })
    : send<Service>('post', '/services', v, { silent: true })
