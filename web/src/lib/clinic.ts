// The clinic's details an admin sets: its name titles the sidebar, and name, address and
// phone head every printed prescription.
import { useQuery } from '@tanstack/react-query'
import { get } from './api'
import { settingsKey } from './queryKeys'
import type { Schema } from './schema'

/** The clinic's header (version 0 until an admin first saves it). */
export type Clinic = Schema<'Clinic'>

export const clinicKey = [...settingsKey, 'clinic'] as const

export const useClinic = () => useQuery({ queryKey: clinicKey, queryFn: () => get<Clinic>('/settings/clinic'), staleTime: 5 * 60_000 })
