import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { meQuery } from '../../../lib/auth/me'
import { profileKey } from '../../../lib/queryKeys'
import type { Profile } from './types'

/** The user's own profile. A failed fetch is only logged, with the spec's words (§8); the page says it could not load. */
export const getProfile = async () => {
  try {
    return await get<Profile>('/get-profile', undefined, { silent: true })
  } catch (e) {
    console.error('Error adding suggestions:', e)
    throw e
  }
}

export const profileQuery = () => queryOptions({ queryKey: profileKey, queryFn: getProfile })

export const useProfile = () => useQuery(profileQuery())

/** A write answered the profile as it now is: shown at once, and the signed-in user (name, picture) read again. */
export function useProfileChanged() {
  const queryClient = useQueryClient()
  return (next: Profile) => {
    queryClient.setQueryData(profileKey, next)
    void queryClient.invalidateQueries({ queryKey: meQuery.queryKey })
  }
}
