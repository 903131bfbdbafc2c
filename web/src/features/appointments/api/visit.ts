import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { appointmentsKey } from './appointments'
import type { Visit, VisitContent, Vitals } from './types'

export const visitKey = (id: number) => ['visit', id] as const

export function useVisit(id: number) {
  return useQuery({ queryKey: visitKey(id), queryFn: () => get<Visit>(`/appointments/${id}/visit`), refetchOnWindowFocus: false })
}

export type VisitWrite =
  | { kind: 'draft'; content: VisitContent; version: number }
  | { kind: 'vitals'; vitals: Vitals; version: number }
  | { kind: 'sign'; version: number }
  | { kind: 'amend'; content: VisitContent; version: number; reason: string }

const write = (id: number, w: VisitWrite) => {
  const base = `/appointments/${id}/visit`
  switch (w.kind) {
    case 'draft':
      return send<Visit>('put', base, { ...w.content, version: w.version }, { silent: true })
    case 'vitals':
      return send<Visit>('put', `${base}/vitals`, { vitals: w.vitals, version: w.version }, { silent: true })
    case 'sign':
      return send<Visit>('post', `${base}/sign`, { version: w.version }, { silent: true })
    case 'amend':
      return send<Visit>('post', `${base}/amend`, { ...w.content, version: w.version, reason: w.reason }, { silent: true })
  }
}

/** Saves, signs or amends the visit; the form shows the errors itself. */
export function useWriteVisit(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (w: VisitWrite) => write(id, w),
    onSuccess: (v, w) => {
      queryClient.setQueryData(visitKey(id), v)
      if (w.kind !== 'draft' || v.follow_up) void queryClient.invalidateQueries({ queryKey: appointmentsKey })
    },
  })
}
