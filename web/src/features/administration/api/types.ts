import type { RequestBody, ResponseBody, Schema } from '../../../lib/schema'

export type Account = Schema<'Account'>

export type Role = Schema<'Role'>

export type AccountInput = Omit<RequestBody<'/api/users/{id}', 'put'>, 'version'>

export type NewAccount = RequestBody<'/api/users', 'post'>

export type RolesBody = Schema<'Roles'>

export type AuditEvent = Schema<'AuditEvent'>

export type AuditEventsPage = ResponseBody<'/api/audit-events', 'get'>
