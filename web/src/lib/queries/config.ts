import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../api'
import { configKey } from '../queryKeys'

/** What the server tells the web app at start: the push channel's settings, the settings panel. */
export interface ClientConfig {
  show_settings: boolean
  // Without host or cluster: the built-in endpoint on this origin.
  push?: { key: string; cluster?: string; host?: string; port?: number; tls?: boolean }
}

export const getConfig = () => get<ClientConfig>('/config')

export const configQuery = () => queryOptions({ queryKey: configKey, queryFn: getConfig, staleTime: Infinity })

export const useConfig = () => useQuery(configQuery())
