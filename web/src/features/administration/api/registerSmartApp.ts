import { send } from '../../../lib/api'
import type { SmartApp } from './smartApps'

export interface SmartAppInput {
  name: string
  redirect_uris: string[]
  launch_url: string
  scopes: string
}

/** Registers a SMART app; the answer holds its client_id. */
export const registerSmartApp = (v: SmartAppInput) => send<SmartApp>('post', '/smart-apps', v)
