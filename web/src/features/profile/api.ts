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
/** The user's own profile. A failed fetch is only logged, with the spec's words (§8); the page says it could not load. */
export const useProfile = () =>
  useQuery({
    queryKey: profileKey,
    queryFn: async () => {
      try {
        return await get<Profile>('/get-profile', undefined, { silent: true })
      } catch (e) {
        console.error('Error adding suggestions:', e)
        throw e
      }
    },
  })

export interface Activity {
  at: string
  action: string
  entity_type: string
  entity_id: string
  outcome: string
  address: string
}
