// The clinic's details an admin sets: its name titles the sidebar, and name, address and
// phone head every printed prescription.
import { useQuery } from '@tanstack/react-query'
import { get } from './api'

export interface Clinic {
  name: string
  address: string
  phone: string
  /** 0 until an admin first saves them. */
  version: number
}

export const clinicKey = ['settings', 'clinic'] as const

export const useClinic = () => useQuery({ queryKey: clinicKey, queryFn: () => get<Clinic>('/settings/clinic'), staleTime: 5 * 60_000 })
