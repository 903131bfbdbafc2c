import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../api'
import { clearLoggedIn } from '../session'
import { stopPreview } from './preview'

export const logout = () => send<void>('post', '/auth/logout')

/** Logs out on the server, then forgets everything cached, whether or not the call worked. */
export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearLoggedIn()
      stopPreview()
      queryClient.clear()
    },
  })
}
