import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { isLoggedIn } from '../lib/session'
import { RequireAuth } from './RequireAuth'

// Every page is its own chunk, so the login page loads only what it needs.
export const routes: RouteObject[] = [
  {
    path: '/login',
    lazy: async () => {
      const { default: LoginPage } = await import('../features/auth/LoginPage')
      // A logged-in user going to /login is sent home (spec §4).
      return { Component: () => (isLoggedIn() ? <Navigate to="/" replace /> : <LoginPage />) }
    },
  },
  { path: '/auth-redirect', element: <Navigate to="/" replace /> },
  {
    path: '/',
    lazy: async () => {
      const { default: HomePage } = await import('../features/home/HomePage')
      return {
        Component: () => (
          <RequireAuth>
            <HomePage />
          </RequireAuth>
        ),
      }
    },
  },
  {
    // Unknown paths need a login too: logged-out visitors may see only /login (spec §4).
    path: '*',
    lazy: async () => {
      const { default: NotFoundPage } = await import('./NotFoundPage')
      return {
        Component: () => (
          <RequireAuth>
            <NotFoundPage />
          </RequireAuth>
        ),
      }
    },
  },
]

export const router = createBrowserRouter(routes)
