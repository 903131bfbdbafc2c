import { useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'

/** The SMART apps a chart can open. */
export const listLaunchableApps = async () => (await get<{ data: { id: number; name: string }[] }>('/smart/apps')).data

export const useLaunchableApps = (enabled: boolean) => useQuery({ queryKey: [...apiTokensKey, 'smart-apps', 'launchable'], queryFn: listLaunchableApps, enabled })

/** Launches app from patient's chart: resolves to the app's address with iss and launch. */
export const launchApp = async (appId: number, patientId: number) => (await send<{ url: string }>('post', '/smart/launch', { app_id: appId, patient_id: patientId })).url
