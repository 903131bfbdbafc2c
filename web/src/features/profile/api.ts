import { useQuery } from '@tanstack/react-query'
import { get } from '../../lib/api'
import type { Licence } from '../../components/prescription/api'

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

export const profileKey = ['profile'] as const
export const useProfile = () => useQuery({ queryKey: profileKey, queryFn: () => get<Profile>('/get-profile') })

export interface Activity {
  at: string
  action: string
  entity_type: string
  entity_id: string
  outcome: string
  address: string
}
