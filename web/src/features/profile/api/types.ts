import type { RequestBody, ResponseBody, Schema } from '../../../lib/schema'

export type Profile = Schema<'Profile'>

export type Activity = ResponseBody<'/api/profile/activity', 'get'>['data'][number]

/** One's second factor as the profile shows it. */
export type TwoFactorStatus = ResponseBody<'/api/profile/two-factor', 'get'>

/** A new secret waiting for its first code: for the authenticator app. */
export type Enrolment = ResponseBody<'/api/profile/two-factor/setup', 'post'>

export type ProfileUpdate = Omit<RequestBody<'/api/update-profile', 'patch'>, 'version'>

export type ApiToken = Schema<'APIToken'>

export type CreatedApiToken = Schema<'CreatedAPIToken'>

export type OwnApiTokenInput = Omit<Schema<'APITokenInput'>, 'user_id'>

export type TokenReach = Schema<'TokenReach'>
