import { QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { BrowserRouter, Navigate, useLocation, useSearchParams } from 'react-router'
import { PageLoading } from '../components/PageLoading'
import { ToastRegion } from '../light/Toast'
import { safeRedirect } from '../features/auth/redirect'
import { isLoggedIn } from '../lib/session'
import { Guard } from './Guard'
import { queryClient } from './queryClient'
import { SessionWatcher } from './SessionWatcher'

const LoginPage = lazy(() => import('../features/auth/LoginPage'))
const Shell = lazy(() => import('./shell/Shell'))

/** /auth-redirect: back to where the user was going, through the login when needed. */
function AuthRedirect() {
  const [params] = useSearchParams()
  const to = safeRedirect(params.get('redirect'))
  return <Navigate to={isLoggedIn() ? to : `/login?redirect=${encodeURIComponent(to)}`} replace />
}

function Pages() {
  const { pathname } = useLocation()
  if (pathname === '/login') {
    // A logged-in user going to /login is sent home (spec §4).
    return isLoggedIn() ? <Navigate to="/" replace /> : <LoginPage />
  }
  if (pathname === '/auth-redirect') return <AuthRedirect />
  return (
    <Guard>
      {(me) => (
        <Suspense fallback={<PageLoading />}>
          <Shell me={me} />
        </Suspense>
      )}
    </Guard>
  )
}

export function Root() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionWatcher />
        <Suspense fallback={null}>
          <Pages />
        </Suspense>
        {/* The toasts, once for every page: one raised as a screen closes, or as a session ends, outlives it. */}
        <ToastRegion />
      </BrowserRouter>
    </QueryClientProvider>
  )
}
