import { send } from '../../../lib/api'
import { type ReleaseKind, type ReleaseStatus, paths } from './release'

export type HoldKind = 'discuss' | 'withhold'

export const holdCategories = ['in_person', 'harm_patient', 'harm_other', 'awaiting_results', 'other'] as const

export type HoldCategory = (typeof holdCategories)[number]

/** A hold: its kind, the category of its reason, the reason, and the day by which a doctor reviews it (YYYY-MM-DD). */
export interface Hold {
  hold_kind: HoldKind
  category: HoldCategory
  reason: string
  review_by: string
}

/** Holds an item at the decision's version; the form shows the server's field errors itself. */
export const holdItem = (kind: ReleaseKind, id: number, version: number, hold: Hold) =>
  send<ReleaseStatus>('post', `/release/${paths[kind]}/${id}`, { action: 'hold', version, ...hold }, { silent: true })
