import { send } from '../../../lib/api'

/** Changes one's own password (ends one's other sessions); the form shows the server's field errors itself. */
export const changePassword = (current: string, next: string) =>
  send<void>('post', '/profile/password', { current_password: current, new_password: next }, { silent: true })
