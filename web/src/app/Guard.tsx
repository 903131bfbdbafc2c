import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation } from 'react-router'
import { forgetMe, meQuery, type Me } from '../lib/auth/me'
import { doneProgress, startProgress } from '../lib/progress'
import { clearLoggedIn, isLoggedIn } from '../lib/session'
import { PageLoading } from '../components/PageLoading'
import { ApiError } from '../lib/api'
import { toLogin } from './SessionWatcher'

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
  const queryClient = useQueryClient()
  const loggedIn = isLoggedIn()
  const me = useQuery({ ...meQuery, enabled: loggedIn })
  const redirect = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`

  // Why the user goes back to the login page: the server's message, the spec's own checks of
  // the answer, or 'Has Error'. (A 401 is handled, with its message, by the API error handler.)
  const problem = me.isError
    ? (me.error instanceof ApiError && me.error.display) || t('auth.hasError')
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
    if (!isLoggedIn()) return // the API error handler has ended the session already
    clearLoggedIn()
    forgetMe(queryClient)
    toLogin(problem ?? t('auth.hasError'))
  }, [failed, problem, queryClient, t])

  if (!loggedIn) return <Navigate to={redirect} replace />
  if (failed) return null
  if (!me.isSuccess) return <PageLoading />
  return children(me.data)
}
