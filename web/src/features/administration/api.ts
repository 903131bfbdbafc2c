import { useQuery } from '@tanstack/react-query'
import { get } from '../../lib/api'
import type { Emergency } from '../../lib/auth/me'

export interface Account {
  id: number
  username: string
  name: string
  email: string
  avatar: string
  roles: string[]
  active: boolean
  locked: boolean
  must_change_password: boolean
  /** Emergency access in force, or null. */
  emergency: Emergency | null
  version: number
}

export interface Role {
  id: number
  name: string
  permissions: string[]
  users: number
  /** Members must sign in with a second factor. */
  require_two_factor: boolean
}

export const accountsKey = ['accounts'] as const

export const useRoles = () => useQuery({ queryKey: ['roles'], queryFn: async () => (await get<{ data: Role[] }>('/roles')).data })
