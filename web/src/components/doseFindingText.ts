// The sentence of a dose-by-weight finding (issue 59, item 6): a dose above the most for the
// child's weight, a child younger or lighter than the table is for, a weight missing or too old.
import type { Schema } from '../lib/schema'
import { echoNumber } from '../lib/number'
import { formatDay } from '../lib/time'

type Finding = Schema<'SafetyFinding'>
type T = (key: string, args?: Record<string, unknown>) => string

/** The finding's sentence, or undefined for a finding of another kind. */
export function doseFindingText(f: Finding, t: T, lang: string): string | undefined {
  const d = f.dosing
  if (!d) return undefined
  const n = (v: number | undefined) => echoNumber(v ?? 0, lang)
  switch (f.kind) {
    case 'dose_above_max':
      return t('rx.safety.doseAboveMax', { dose: n(d.dose_mg), weight: n(d.weight_kg), max: n(d.max_dose_mg) })
    case 'dose_above_daily_max':
      return t('rx.safety.doseAboveDaily', { day: n(d.day_mg), weight: n(d.weight_kg), max: n(d.max_day_mg) })
    case 'dose_under_min_age':
      return t('rx.safety.doseUnderAge', { count: d.min_age_months ?? 0 })
    case 'dose_under_min_weight':
      return t('rx.safety.doseUnderWeight', { weight: n(d.weight_kg), min: n(d.min_weight_kg) })
    case 'weight_missing':
      return t('rx.safety.weightMissing')
    case 'weight_stale':
      return t('rx.safety.weightStale', { count: d.weight_age_days ?? 0, weight: n(d.weight_kg), date: formatDay(d.weight_on ?? '', lang), limit: d.limit_days })
  }
  return undefined
}
