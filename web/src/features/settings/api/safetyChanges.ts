import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { medicineSafetyKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import type { ImportReport } from '../../../lib/types'

export type ClinicAlias = Schema<'ClinicAlias'>

export type ClinicInteraction = Schema<'ClinicInteraction'>

export type ClinicInteractionInput = Schema<'ClinicInteractionInput'>

/** The clinic's additions: each change refreshes the knowledge shown. */
export function useSafetyChanges() {
  const queryClient = useQueryClient()
  const onSuccess = () => void queryClient.invalidateQueries({ queryKey: medicineSafetyKey })
  return {
    addAlias: useMutation({ mutationFn: (v: { name: string; ingredients: string }) => send<ClinicAlias>('post', '/medicine-safety/aliases', v, { silent: true }), onSuccess }),
    importAliases: useMutation({
      mutationFn: (file: File) => {
        const fd = new FormData()
        fd.append('file', file, file.name)
        return send<ImportReport>('post', '/medicine-safety/aliases/import', fd)
      },
      onSuccess,
    }),
    removeAlias: useMutation({ mutationFn: (id: number) => send<void>('delete', `/medicine-safety/aliases/${id}`), onSuccess }),
    addInteraction: useMutation({ mutationFn: (v: ClinicInteractionInput) => send<ClinicInteraction>('post', '/medicine-safety/interactions', v, { silent: true }), onSuccess }),
    removeInteraction: useMutation({ mutationFn: (id: number) => send<void>('delete', `/medicine-safety/interactions/${id}`), onSuccess }),
  }
}
