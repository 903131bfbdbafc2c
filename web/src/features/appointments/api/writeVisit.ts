import { useMutation, useQueryClient } from '@tanstack/react-query'
import { appointmentsKey } from '../../../lib/queryKeys'
import { amendVisit } from './amendVisit'
import { visitQuery } from './getVisit'
import { saveVisitDraft } from './saveVisitDraft'
import { saveVitals } from './saveVitals'
import { signVisit } from './signVisit'
import type { Visit, VisitContent, Vitals } from './types'

/** One of the writes the diagnosis form makes. */
export type VisitWrite =
  | { kind: 'draft'; content: VisitContent; version: number }
  | { kind: 'vitals'; vitals: Vitals; version: number }
  | { kind: 'sign'; version: number }
  | { kind: 'amend'; content: VisitContent; version: number; reason: string }

const write = (id: number, w: VisitWrite): Promise<Visit> => {
  switch (w.kind) {
    case 'draft':
      return saveVisitDraft(id, w.content, w.version)
    case 'vitals':
      return saveVitals(id, w.vitals, w.version)
    case 'sign':
      return signVisit(id, w.version)
    case 'amend':
      return amendVisit(id, w.content, w.version, w.reason)
  }
}

/** Saves, signs or amends the visit; the form shows the errors itself. */
export function useWriteVisit(id: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (w: VisitWrite) => write(id, w),
    onSuccess: (v, w) => {
      queryClient.setQueryData(visitQuery(id).queryKey, v)
      if (w.kind !== 'draft' || v.follow_up) void queryClient.invalidateQueries({ queryKey: appointmentsKey })
    },
  })
}
