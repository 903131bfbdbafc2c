import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useNavigate } from 'react-router'
import { meQuery, type Me } from '../lib/auth/me'
import { doneProgress, startProgress } from '../lib/progress'
import { clearLoggedIn, isLoggedIn } from '../lib/session'
import { toastError } from '../lib/toast'

/**
 * The route guard of spec §4 for every page but /login and /auth-redirect:
 * - not logged in: go to /login?redirect={path};
 * - logged in with the user's roles loaded: render the app;
 * - logged in without them: fetch the user (GET /api/user), then render the routes their
 *   roles and permissions allow; on failure reset the session, show the error message (or
 *   'Has Error') and go to /login?redirect={path}.
 */
export function Guard({ children }: { children: (me: Me) => ReactNode }) {
  const { t } = useTranslation()
  const location = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const loggedIn = isLoggedIn()
  const me = useQuery({ ...meQuery, enabled: loggedIn })
  const redirect = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`

  // A failed call has been reported by the API error watcher; the spec's own checks of the
  // answer are reported here.
  const problem = me.isError
    ? null
    : me.isSuccess && !me.data
      ? t('auth.verificationFailed')
      : me.isSuccess && (!Array.isArray(me.data.roles) || me.data.roles.length === 0)
        ? t('auth.rolesRequired')
        : undefined
  const failed = me.isError || problem !== undefined

  useEffect(() => {
    if (loggedIn && me.isPending) startProgress()
  }, [loggedIn, me.isPending])

  useEffect(() => {
    if (!failed) return
    doneProgress()
    clearLoggedIn()
    queryClient.removeQueries({ queryKey: meQuery.queryKey })
    if (problem) void toastError(problem)
    navigate(redirect, { replace: true })
  }, [failed, problem, queryClient, navigate, redirect])

  if (!loggedIn) return <Navigate to={redirect} replace />
  if (!me.isSuccess || failed) return null
  return children(me.data)
}
