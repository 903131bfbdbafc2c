import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { onApiError } from '../lib/api'
import { clearLoggedIn, isLoggedIn } from '../lib/session'
import { toastError } from '../lib/toast'

/**
 * The one place that tells the user about failed API calls (spec §8): an error toast for
 * 5 seconds with the server's message. A 401 also ends the session here: the page goes to
 * /login?redirect={path}.
 */
export function SessionWatcher() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const queryClient = useQueryClient()
  const here = useRef('')
  here.current = location.pathname + location.search

  useEffect(
    () =>
      onApiError((error) => {
        if (!error.silent) {
          const fallback = error.code === 'error.timeout' ? t('errors.timeout') : error.status === 0 ? t('errors.network') : t('errors.generic')
          void toastError(error.display || fallback)
        }
        if (error.status === 401 && isLoggedIn()) {
          clearLoggedIn()
          queryClient.clear()
          navigate(`/login?redirect=${encodeURIComponent(here.current)}`, { replace: true })
        }
      }),
    [t, navigate, queryClient],
  )
  return null
}
