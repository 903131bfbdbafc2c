import { send } from '../../../lib/api'

/** Launches app from patient's chart: resolves to the app's address with iss and launch. */
export const launchApp = async (appId: number, patientId: number) => (await send<{ url: string }>('post', '/smart/launch', { app_id: appId, patient_id: patientId })).url
