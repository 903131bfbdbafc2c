import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'

/** The SMART apps a chart can open. */
export const listLaunchableApps = async () => (await get<{ data: { id: number; name: string }[] }>('/smart/apps')).data

export const useLaunchableApps = (enabled: boolean) => useQuery({ queryKey: [...apiTokensKey, 'smart-apps', 'launchable'], queryFn: listLaunchableApps, enabled })
