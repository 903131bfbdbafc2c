import { useMutation, useQuery } from '@tanstack/react-query'
import { get, http } from '../../../lib/api'
import type { Code, LabTest } from './types'

export const searchCodes = async (q: string) => (await get<{ data: Code[] }>('/diagnosis-codes', { q })).data

/** The orderable tests; only for those who order them (enabled), so no screen asks for what its user may not use. */
export function useLabTests(enabled = true) {
  return useQuery({ queryKey: ['lab-tests'], queryFn: async () => (await get<{ data: LabTest[] }>('/lab-tests')).data, staleTime: 300_000, enabled })
}

export interface ImportReport {
  inserted: number
  updated: number
  unchanged: number
  rejected: number
  errors: { line: number; message: string }[]
}

export function useImportCodes() {
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData()
      form.append('file', file)
      return (await http.post<ImportReport>('/diagnosis-codes/import', form)).data
    },
  })
}
