import { send } from '../../../lib/api'
import type { Profile, ProfileUpdate } from './types'

/** Saves one's own profile at the version read; the form shows the server's field errors itself. */
export const updateProfile = (v: ProfileUpdate, version: number) => send<Profile>('patch', '/update-profile', { ...v, version }, { silent: true })
