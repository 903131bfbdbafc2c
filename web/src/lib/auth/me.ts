import { queryOptions } from '@tanstack/react-query'
import { get } from '../api'

/** The logged-in user as GET /api/user describes them. */
export interface Me {
  id: number
  username: string
  name: string
  avatar: string
  introduction: string
  roles: string[]
  permissions: string[]
  /** An administrator reset the password: the user changes it before anything else. */
  must_change_password?: boolean
  /** A role requires two-factor sign-in and the user has not set it up: they do so before anything else. */
  must_enrol_two_factor?: boolean
  /** Emergency access an administrator granted: extra permissions until expires_at; all actions flagged. */
  emergency?: Emergency | null
}

export interface Emergency {
  id: number
  reason: string
  permissions: string[]
  starts_at: string
  expires_at: string
  granted_by: string
}

export const meQueryKey = ['me'] as const

// The route guard reports a failure itself, on the login page.
export const getMe = () => get<Me>('/user', undefined, { silent: true })

export const meQuery = queryOptions({ queryKey: meQueryKey, queryFn: getMe, staleTime: 60_000, retry: false })
