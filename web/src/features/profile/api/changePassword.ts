import { send } from '../../../lib/api'
import { meQuery } from '../../../lib/auth/me'
import { apiTokensKey } from '../../../lib/queryKeys'
import { useWrite } from '../../../lib/write'

/** Changes one's own password (ends one's other sessions); the form shows the server's field errors itself. */
export const changePassword = (current: string, next: string) =>
  send<void>('post', '/profile/password', { current_password: current, new_password: next }, { silent: true })

/** changePassword, then the signed-in user and the API tokens (a new password ends every one) read again. */
export const useChangePassword = () =>
  useWrite(changePassword, (queryClient) => {
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey })
    void queryClient.invalidateQueries({ queryKey: apiTokensKey })
  })
