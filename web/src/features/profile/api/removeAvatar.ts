import { send } from '../../../lib/api'
import type { Profile } from './types'

export const removeAvatar = () => send<Profile>('delete', '/profile/avatar')
