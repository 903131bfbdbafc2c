import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
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

/** The SMART apps, newest first. */
export const listSmartApps = () => get<{ data: SmartApp[] }>('/smart-apps')

export const smartAppsQuery = () => queryOptions({ queryKey: [...apiTokensKey, 'smart-apps'], queryFn: listSmartApps })

export const useSmartApps = () => useQuery(smartAppsQuery())
