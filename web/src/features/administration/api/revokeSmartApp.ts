import { send } from '../../../lib/api'
import type { SmartApp } from './smartApps'

/** Revokes a SMART app: its grants and tokens end at once. */
export const revokeSmartApp = (id: number) => send<SmartApp>('delete', `/smart-apps/${id}`)
