import { queryOptions, type QueryClient } from '@tanstack/react-query'
import { get } from '../api'
import { meKey } from '../queryKeys'
import type { Schema } from '../schema'

/** The logged-in user as GET /api/user describes them (must_change_password and
 * must_enrol_two_factor send them to their profile first; emergency is access an
 * administrator granted, flagged in the audit log). */
export type Me = Schema<'Me'>

/** Emergency access in force: extra permissions until expires_at. */
export type Emergency = NonNullable<Schema<'Emergency'>>

export const meQueryKey = meKey

// The route guard reports a failure itself, on the login page.
export const getMe = () => get<Me>('/user', undefined, { silent: true })

export const meQuery = queryOptions({ queryKey: meQueryKey, queryFn: getMe, staleTime: 60_000, retry: false })

/** Forgets the signed-in user (a session that failed its check): the next sign-in reads them afresh. */
export const forgetMe = (queryClient: QueryClient) => queryClient.removeQueries({ queryKey: meQuery.queryKey })
