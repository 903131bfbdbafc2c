import { useQuery } from '@tanstack/react-query'
import { App, Spin } from 'antd'
import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation } from 'react-router'
import { meQuery } from '../lib/auth/me'
import { ApiError } from '../lib/api'
import { clearLoggedIn, isLoggedIn } from '../lib/session'

/** Lets logged-in users through; others go to /login?redirect={path} (spec §4). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const location = useLocation()
  const loggedIn = isLoggedIn()
  const me = useQuery({ ...meQuery, enabled: loggedIn })
  const redirect = `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`

  // The spec's user-info checks: a response is needed, and it must carry roles.
  const invalid = me.isSuccess && (!me.data || !Array.isArray(me.data.roles) || me.data.roles.length === 0)
  const failed = me.isError || invalid

  useEffect(() => {
    if (!failed) return
    clearLoggedIn()
    const text = invalid
      ? !me.data
        ? t('auth.verificationFailed')
        : t('auth.rolesRequired')
      : me.error instanceof ApiError && me.error.display
        ? me.error.display
        : t('auth.hasError')
    void message.error(text)
  }, [failed, invalid, me.data, me.error, message, t])

  if (!loggedIn || failed) return <Navigate to={redirect} replace />
  if (!me.isSuccess) {
    return (
      <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <Spin size="large" />
      </div>
    )
  }
  return children
}
