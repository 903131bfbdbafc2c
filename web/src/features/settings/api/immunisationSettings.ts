// The clinic's immunisation settings (GET/PUT /api/immunisation/settings, manage settings): the
// schedules it follows in order, the vaccines it stocks, the parents' reminders, and how old a
// child's weight may be for a dose by weight. The PUT sends the whole object at the version read.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { settingsKey } from '../../../lib/queryKeys'

export type ReminderChannel = 'sms' | 'email'

export interface ImmunisationSettings {
  /** In order: for each antigen the first schedule that has it decides. */
  schedules: string[]
  stocked: string[]
  reminders: { on: boolean; days_before: number; channels: ReminderChannel[] }
  weight_max_age_days: number
  version: number
}

export const immunisationSettingsKey = [...settingsKey, 'immunisation'] as const

/** Every list a list (the server may leave an empty one out as null). */
const normalise = (s: ImmunisationSettings): ImmunisationSettings => ({
  ...s,
  schedules: s.schedules ?? [],
  stocked: s.stocked ?? [],
  reminders: { ...s.reminders, channels: s.reminders?.channels ?? [] },
})

export const immunisationSettingsQuery = () =>
  queryOptions({ queryKey: immunisationSettingsKey, queryFn: () => get<ImmunisationSettings>('/immunisation/settings').then(normalise) })

export const useImmunisationSettings = () => useQuery(immunisationSettingsQuery())
