import { queryOptions } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { apiTokensKey } from '../../../lib/queryKeys'

/** An authorization request as the app sent it (its query parameters). */
export type AuthRequest = Record<string, string>

/** The consent page's offer: what the app would be granted, or where to send the browser. */
export interface ConsentOffer {
  app?: { name: string; client_id: string }
  scopes?: string[]
  withheld?: string[]
  /** The patient in context: name's parts, ordered by the reader's language (fullName). */
  patient?: { id: number; name: string; first_name: string; middle_name: string; last_name: string; mrn: string; birth_date: string }
  needs_patient?: boolean
  redirect?: string
}

/** Reads what the signed-in user would grant the app asking with request. */
export const getConsentOffer = (request: AuthRequest) => get<ConsentOffer>('/smart/authorize', request)

/** Read once: the answer is the page's for as long as it is shown. */
export const consentOfferQuery = (request: AuthRequest) =>
  queryOptions({ queryKey: [...apiTokensKey, 'consent', request], queryFn: () => getConsentOffer(request), retry: false, staleTime: Infinity })
