import type { RequestBody, ResponseBody, Schema } from '../../../lib/schema'

export type Account = Schema<'Account'>

export type Role = Schema<'Role'>

export type AccountInput = Omit<RequestBody<'/api/users/{id}', 'put'>, 'version'>

export type NewAccount = RequestBody<'/api/users', 'post'>

export type RolesBody = Schema<'Roles'>

export type AuditEvent = Schema<'AuditEvent'>

export type AuditEventsPage = ResponseBody<'/api/audit-events', 'get'>

export type ApiToken = Schema<'APIToken'>

export type ApiTokenInput = Schema<'APITokenInput'>

export type CreatedApiToken = Schema<'CreatedAPIToken'>

export type ApiClient = Schema<'APIClient'>

export type ApiClientInput = RequestBody<'/api/api-clients', 'post'>

export type TokenReach = Schema<'TokenReach'>

export type OwnTwoFactor = ResponseBody<'/api/profile/two-factor', 'get'>
