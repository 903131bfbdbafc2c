import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../api'
import { configKey } from '../queryKeys'
import type { ResponseBody } from '../schema'

/** What the server tells the web app at start: the push channel's settings, the settings panel. */
export type ClientConfig = ResponseBody<'/api/config', 'get'>

export const getConfig = () => get<ClientConfig>('/config')

export const configQuery = () => queryOptions({ queryKey: configKey, queryFn: getConfig, staleTime: Infinity })

export const useConfig = () => useQuery(configQuery())
