import { queryOptions, useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'

/** A registered SMART app (SMART App Launch): a browser app, a public client. */
export interface SmartApp {
  id: number
  client_id: string
  name: string
  redirect_uris: string[]
  launch_url: string
  scopes: string
  created_at: string
  revoked_at: string | null
}

export interface SmartAppInput {
  name: string
  redirect_uris: string[]
  launch_url: string
  scopes: string
}

/** The SMART apps, newest first. */
export const listSmartApps = () => get<{ data: SmartApp[] }>('/smart-apps')

export const smartAppsQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'smart-apps'], queryFn: listSmartApps })

export const useSmartApps = () => useQuery(smartAppsQuery())

/** Registers a SMART app; the answer holds its client_id. */
export const registerSmartApp = (v: SmartAppInput) => send<SmartApp>('post', '/smart-apps', v)

/** Revokes a SMART app: its grants and tokens end at once. */
export const revokeSmartApp = (id: number) => send<SmartApp>('delete', `/smart-apps/${id}`)
