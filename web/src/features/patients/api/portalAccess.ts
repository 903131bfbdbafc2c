import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type PortalStatus = Schema<'PortalStatus'>

/** Under the patient's key: a change to the patient refreshes their portal access too. */
export const portalKey = (id: number) => [...patientsKey, id, 'portal'] as const

/** A patient's portal access: on or off, live codes, open sessions, guardians. */
export const usePortalStatus = (id: number, enabled: boolean) =>
  useQuery({ queryKey: portalKey(id), queryFn: () => get<PortalStatus>(`/patients/${id}/portal`), enabled })
