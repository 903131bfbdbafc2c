import { send } from '../../../lib/api'

/** Creates a custom role; the form shows the server's field errors itself. */
export const createRole = (name: string) => send<{ id: number }>('post', '/roles', { name }, { silent: true })
