// The clinic's immunisation due list and its reminders (GET /api/immunisation/due, POST
// /api/immunisation/due/remind), as the due list screen reads and sends them.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { immunisationDueKey } from '../../../lib/queryKeys'
import { useCatalogue } from './getCatalogue'

export const STATUSES = ['all', 'overdue', 'due'] as const
export type DueStatus = (typeof STATUSES)[number]
export const BANDS = ['0-1y', '1-2y', '2-6y', '6-18y'] as const
export type Band = (typeof BANDS)[number]

export interface DueItem {
  patient_id: number
  mrn: string
  name: string
  birth_date: string
  age_band: string
  antigen: string
  antigen_name: string
  dose_number: number
  schedule: string
  /** The clinic's first schedule is a national programme and this dose comes from a later one (a service vaccine). */
  outside_programme: boolean
  due_on: string
  overdue_on: string
  status: 'upcoming' | 'due' | 'overdue'
  last_reminded_at: string | null
  contact: { phone: string; email: string }
}

export interface DuePage {
  items: DueItem[]
  next: string | null
  /** With the first page only (null on the next ones). */
  counts: { due: number; overdue: number; capped?: boolean } | null
  as_of: string
}

export interface DueFilter {
  status: DueStatus
  antigen: string
  band: Band | ''
  after: string
}

export const SKIP_REASONS = ['not_found', 'nothing_due', 'already_reminded', 'no_contact'] as const
export type SkipReason = (typeof SKIP_REASONS)[number]

export interface RemindResult {
  queued: number
  skipped: { patient_id: number; reason: SkipReason }[]
}

/** Every page of the list sits under this key: a reminder sent re-reads them (last reminded). */
export const dueKey = immunisationDueKey

export const PAGE_SIZE = 50

/** A count stops here (the server's CountCap): past it the screen says 1000+. */
export const COUNT_CAP = 1000

export const dueQuery = (f: DueFilter) =>
  queryOptions({
    queryKey: [...dueKey, f],
    queryFn: () =>
      get<DuePage>('/immunisation/due', { status: f.status, antigen: f.antigen || undefined, band: f.band || undefined, after_id: f.after || undefined, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  })

export const useDueList = (f: DueFilter) => useQuery(dueQuery(f))

/** The catalogue's antigens, for the filter (none while the catalogue cannot be read). */
export const useAntigens = () => {
  const catalogue = useCatalogue()
  return { ...catalogue, data: catalogue.data ? { antigens: catalogue.data.antigens } : undefined }
}
