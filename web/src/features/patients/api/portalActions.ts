import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { type PortalStatus, portalKey } from './portalAccess'

export type PortalInvitation = Schema<'PortalInvitation'>

export type GuardianInput = { channel: 'email' | 'sms' | 'patient'; address?: string; patient_id?: number }

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
