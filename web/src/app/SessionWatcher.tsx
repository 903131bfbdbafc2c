import { useEffect } from 'react'
import { useNavigate, type NavigateFunction } from 'react-router'
import { onApiError } from '../lib/api'
import i18n from '../lib/i18n'
import { clearLoggedIn, isLoggedIn, setLoginNotice } from '../lib/session'
import { toastError } from '../lib/toast'
import { queryClient } from './queryClient'

let navigate: NavigateFunction | null = null

/** Sends the user to /login?redirect={here} with a message for the login page to show. */
export function toLogin(notice: string) {
  const to = `/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`
  setLoginNotice(notice)
  if (navigate) navigate(to, { replace: true })
  else window.location.assign(to)
}

// The one place that tells the user about failed API calls (spec §8). Registered when this
// module loads, before any request can be sent. A 401 ends the session: the login page
// shows why; every other failure is an error toast for 5 seconds with the server's message.
onApiError((error) => {
  if (error.status === 401 && isLoggedIn()) {
    clearLoggedIn()
    queryClient.clear()
    toLogin(error.display || i18n.t('auth.hasError'))
    return
  }
  if (error.silent) return
  const fallback = error.code === 'error.timeout' ? i18n.t('errors.timeout') : error.status === 0 ? i18n.t('errors.network') : i18n.t('errors.generic')
  toastError(error.display || fallback)
})

/** Gives the API error handler the router's navigate. */
export function SessionWatcher() {
  const nav = useNavigate()
  useEffect(() => {
    navigate = nav
    return () => {
      navigate = null
    }
  }, [nav])
  return null
}
