import { useMutation, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../api'
import { markLoggedIn } from '../session'
import { meQueryKey, type Me } from './me'

export interface Credentials {
  username: string
  password: string
  /** The second factor, once the server has asked for it (auth.two_factor_required). */
  code?: string
}

/** Fetches the CSRF cookie, then logs in with the username trimmed (spec §5). */
export async function login({ username, password, code }: Credentials): Promise<Me> {
  await get('/sanctum/csrf-cookie')
  // The login form shows its own errors.
  return send<Me>('post', '/auth/login', { username: username.trim(), password, ...(code ? { code: code.trim() } : {}) }, { silent: true })
}

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: (me) => {
      markLoggedIn()
      queryClient.setQueryData(meQueryKey, me)
    },
  })
}
