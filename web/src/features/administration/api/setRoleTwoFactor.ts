import { send } from '../../../lib/api'
import type { RolesBody } from './types'

/** Sets whether a role's members must sign in with a second factor (saved at once, audited). */
export const setRoleTwoFactor = (id: number, required: boolean) => send<RolesBody>('put', `/roles/${id}/two-factor`, { required })
