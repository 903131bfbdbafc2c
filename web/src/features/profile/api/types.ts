import type { Licence } from '../../../lib/types'

export interface Profile {
  id: number
  username: string
  name: string
  pic: string
  email: string
  introduction: string
  roles: string[]
  specialisations: string[]
  licences: Licence[]
  has_signature: boolean
  signature_url: string
  version: number
}

export interface Activity {
  at: string
  action: string
  entity_type: string
  entity_id: string
  outcome: string
  address: string
}

/** One's second factor as the profile shows it. */
export interface TwoFactorStatus {
  enabled: boolean
  required: boolean
  recovery_codes_left: number
}

/** A new secret waiting for its first code: for the authenticator app. */
export interface Enrolment {
  secret: string
  otpauth_url: string
  qr: string
}

export interface ProfileUpdate {
  name?: string
  email?: string
  introduction?: string
  specialisations?: string[]
  licences?: Licence[]
}
