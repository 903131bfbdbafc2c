import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
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
  const queryClient = useQueryClient()

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
          navigate(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`, { replace: true })
        }
      }),
    [t, navigate, queryClient],
  )
  return null
}
