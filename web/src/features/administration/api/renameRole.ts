import { send } from '../../../lib/api'

/** Renames a custom role; the form shows the server's field errors itself. */
export const renameRole = (id: number, name: string) => send<void>('put', `/roles/${id}`, { name }, { silent: true })
