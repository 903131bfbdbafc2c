import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'

export type PortalStatus = Schema<'PortalStatus'>
export type PortalInvitation = Schema<'PortalInvitation'>
export type GuardianInput = { channel: 'email' | 'sms' | 'patient'; address?: string; patient_id?: number }

const portalKey = (id: number) => ['patients', id, 'portal'] as const

/** A patient's portal access: on or off, live codes, open sessions, guardians. */
export const usePortalStatus = (id: number, enabled: boolean) =>
  useQuery({ queryKey: portalKey(id), queryFn: () => get<PortalStatus>(`/patients/${id}/portal`), enabled })

/** The card's actions: each answers the new status, kept as the query's data. */
export function usePortalActions(id: number) {
  const queryClient = useQueryClient()
  const keep = (s: PortalStatus) => queryClient.setQueryData(portalKey(id), s)
  return {
    invite: useMutation({
      mutationFn: () => send<PortalInvitation>('post', `/patients/${id}/portal/invite`),
      onSuccess: (inv) => keep(inv.status),
    }),
    revoke: useMutation({ mutationFn: () => send<PortalStatus>('post', `/patients/${id}/portal/revoke`), onSuccess: keep }),
    link: useMutation({ mutationFn: (g: GuardianInput) => send<PortalStatus>('post', `/patients/${id}/portal/guardians`, g), onSuccess: keep }),
    unlink: useMutation({ mutationFn: (link: number) => send<PortalStatus>('delete', `/patients/${id}/portal/guardians/${link}`), onSuccess: keep }),
  }
}
