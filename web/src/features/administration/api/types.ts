import type { Emergency } from '../../../lib/auth/me'

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

export interface AccountInput {
  name: string
  email: string
  roles: string[]
  active: boolean
}

export interface NewAccount {
  username: string
  name: string
  email: string
  roles: string[]
  password: string
}

/** The roles with the version of their permission matrix (a stale matrix is refused). */
export interface RolesBody {
  data: Role[]
  version: number
}

/** One audit event as the viewer lists it. */
export interface AuditEvent {
  id: number
  seq: number | null
  at: string
  actor_id: number | null
  actor_name: string
  action: string
  entity_type: string
  entity_id: string
  patient_id: number
  patient_mrn: string
  address: string
  outcome: 'success' | 'failure' | 'denied'
  detail: string
  emergency: boolean
  hash: string
}

export interface AuditEventsPage {
  data: AuditEvent[]
  meta: { total: number | null; total_capped: boolean; per_page: number; next: string; prev: string }
}
