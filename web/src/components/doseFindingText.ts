// The sentence of a dose-by-weight finding (issue 59, item 6): a dose above the most for the
// child's weight (or of any weight), a child younger or lighter than the table is for, a weight
// missing or too old, a dose that cannot be read, a dose by weight that is not what prints.
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
    // Without a recent weight (weight_kg absent) the most is the table's of any weight.
    case 'dose_above_max':
      if (!d.weight_kg) return t('rx.safety.doseAboveMaxAny', { dose: n(d.dose_mg), max: n(d.max_dose_mg) })
      return t('rx.safety.doseAboveMax', { dose: n(d.dose_mg), weight: n(d.weight_kg), max: n(d.max_dose_mg) })
    case 'dose_above_daily_max':
      if (!d.weight_kg) return t('rx.safety.doseAboveDailyAny', { day: n(d.day_mg), max: n(d.max_day_mg) })
      return t('rx.safety.doseAboveDaily', { day: n(d.day_mg), weight: n(d.weight_kg), max: n(d.max_day_mg) })
    case 'dose_unreadable':
      return t('rx.safety.doseUnreadable')
    case 'dose_mismatch':
      return t('rx.safety.doseMismatch', { dose: n(d.dose_mg), box: n(d.box_dose_mg), perDay: d.doses_per_day ?? 0, boxPerDay: d.box_doses_per_day ?? 0 })
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
