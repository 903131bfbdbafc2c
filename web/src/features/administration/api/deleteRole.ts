import { send } from '../../../lib/api'

/** Deletes a custom role that no account holds. */
export const deleteRole = (id: number) => send<void>('delete', `/roles/${id}`)
