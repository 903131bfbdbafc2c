// The charting aids every charting screen shares (issue 37): the doctor's snippets and the
// chart's values they fill, and the favourites and most used entries pickers offer first.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from './api'
import { useCan } from './auth/can'
import { favouritesKey, snippetsKey } from './queryKeys'
import type { Schema } from './schema'

export type Snippet = Schema<'Snippet'>
export type Pick = Schema<'Pick'>
export type Picks = Schema<'Picks'>
export type FavouriteKind = 'medicine' | 'test' | 'code'

/** The sections of a visit a snippet may be for, by the form's field. */
export const SECTION_OF_FIELD = { chief_complaint: 'complaint', present_illness: 'history', examination: 'examination', plan: 'plan' } as const
export type SnippetSection = Snippet['section']

export const snippetsQuery = () =>
  queryOptions({ queryKey: [...snippetsKey], queryFn: async () => (await get<{ data: Snippet[] }>('/snippets')).data, staleTime: 60_000 })

/** The snippets the doctor types with (none for whoever does not chart). */
export const useSnippets = (enabled = true) => useQuery({ ...snippetsQuery(), enabled })

/** What the visit's snippets fill in ({{age}}, {{sex}}, {{allergies}}, {{vitals.bp}}, {{last.X}}). */
export const chartValuesQuery = (appointmentId: number) =>
  queryOptions({
    queryKey: [...snippetsKey, 'values', appointmentId],
    queryFn: async () => (await get<{ values: Record<string, string> }>(`/appointments/${appointmentId}/chart-values`)).values,
    staleTime: 30_000,
  })

export const useChartValues = (appointmentId: number | undefined) => useQuery({ ...chartValuesQuery(appointmentId ?? 0), enabled: !!appointmentId })

export const picksQuery = () => queryOptions({ queryKey: [...favouritesKey], queryFn: () => get<Picks>('/favourites'), staleTime: 60_000 })

/** Whether the user keeps favourites: those who write diagnoses or prescriptions (the server's rule). */
export function useKeepsFavourites(): boolean {
  const diagnoses = useCan('write diagnosis')
  const prescriptions = useCan('write prescription')
  return diagnoses || prescriptions
}

/** The doctor's favourites, then most used in the last 90 days, of each kind; not asked for
 * by whoever keeps none (a nurse on the visit page), whom the server would refuse. */
export function usePicks(enabled = true) {
  const keeps = useKeepsFavourites()
  return useQuery({ ...picksQuery(), enabled: enabled && keeps })
}

/** Stars or unstars an entry; the pickers' lists follow. */
export function useStar() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ kind, ref, on }: { kind: FavouriteKind; ref: string; on: boolean }) =>
      send<void>(on ? 'put' : 'delete', `/favourites/${kind}/${encodeURIComponent(ref)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: favouritesKey }),
  })
}

/**
 * Orders entries for a picker: the doctor's favourites first, then their most used, then the
 * rest as they came. ref gives an entry's reference (a code, a medicine's id).
 */
export function favouritesFirst<T>(entries: T[], picks: Pick[] | undefined, ref: (e: T) => string): T[] {
  if (!picks?.length) return entries
  const rank = new Map(picks.map((p, i) => [p.ref, i])) // the server lists favourites, then by uses
  return entries
    .map((e, i) => ({ e, r: rank.get(ref(e)) ?? picks.length + i }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.e)
}
