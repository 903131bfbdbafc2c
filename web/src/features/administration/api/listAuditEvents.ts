import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { auditEventsKey } from '../../../lib/queryKeys'
import type { AuditEventsPage } from './types'

/** The viewer's filter, sort and page position, as the API reads them. */
export type AuditQuery = Record<string, string | number | undefined>

export const listAuditEvents = (query: AuditQuery) => get<AuditEventsPage>('/audit-events', query)

export const auditEventsQuery = (query: AuditQuery) =>
  queryOptions({ queryKey: [...auditEventsKey, query], queryFn: () => listAuditEvents(query), placeholderData: keepPreviousData })

export const useAuditEvents = (query: AuditQuery) => useQuery(auditEventsQuery(query))
