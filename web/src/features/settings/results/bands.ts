// How the results catalogue says an analyte's bands: the ages a band covers, a reference
// range, critical limits and a delta check's window, in the reader's language; and the ages
// no critical band covers, where a critical value would alert no one.
import type { TFunction } from 'i18next'
import { writeNumber } from '../../../lib/number'
import type { AnalyteEdit } from '../api/resultsCatalogue'

export type ReferenceBand = AnalyteEdit['ranges'][number]
export type CriticalBand = NonNullable<AnalyteEdit['critical']>[number]
export type DeltaRule = NonNullable<AnalyteEdit['delta_rules']>[number]

const num = (n: number | null | undefined, lang: string) => (n == null ? '' : writeNumber(n, lang))

/** An age in completed months as a person says it: whole years from two years on, else months. */
export function ageText(months: number, t: TFunction): string {
  return months >= 24 && months % 12 === 0 ? t('catalogueEditor.years', { count: months / 12 }) : t('catalogueEditor.months', { count: months })
}

/** The ages [from, to) a band covers: "" for every age, "≥ 18 years", "1 month–2 years". */
export function ageBand(from: number, to: number | null | undefined, t: TFunction): string {
  if (to == null) return from === 0 ? '' : `≥ ${ageText(from, t)}`
  return `${ageText(from, t)}–${ageText(to, t)}`
}

/** A reference range as the list shows it: "Men ≥ 18 years: 3.5–5.1", "Any sex: ≤ 5.16". */
export function rangeSummary(r: ReferenceBand, t: TFunction, lang: string): string {
  const ages = ageBand(r.age_from_months, r.age_to_months, t)
  const limits = r.low != null && r.high != null ? `${num(r.low, lang)}–${num(r.high, lang)}` : r.low != null ? `≥ ${num(r.low, lang)}` : `≤ ${num(r.high, lang)}`
  return `${t(`catalogueEditor.sex.${r.sex}`)}${ages ? ` ${ages}` : ''}: ${limits}`
}

/** Critical limits as the list shows them: "1 month–18 years: ≤ 2.5; ≥ 6.5". */
export function criticalSummary(c: CriticalBand, t: TFunction, lang: string): string {
  const limits = [c.critical_low != null ? `≤ ${num(c.critical_low, lang)}` : '', c.critical_high != null ? `≥ ${num(c.critical_high, lang)}` : '']
  return `${ageBand(c.age_from_months, c.age_to_months, t) || t('catalogueEditor.allAges')}: ${limits.filter(Boolean).join('; ')}` // "; ": a comma is the decimal sign in ru and vi
}

/** A span of hours in days and hours where it is a day or more: "2 days", "1 day 12 hours", "6 hours". */
export function windowText(hours: number, t: TFunction): string {
  const days = Math.floor(hours / 24)
  const rest = hours % 24
  if (days === 0) return t('catalogueEditor.hours', { count: hours })
  return rest === 0 ? t('catalogueEditor.days', { count: days }) : `${t('catalogueEditor.days', { count: days })} ${t('catalogueEditor.hours', { count: rest })}`
}

/** A delta check as the list shows it: "change ≥ 26.5 µmol/L within 2 days". */
export function deltaSummary(d: DeltaRule, unit: string, t: TFunction, lang: string): string {
  const parts = [d.abs != null ? `${num(d.abs, lang)}${unit ? ` ${unit}` : ''}` : '', d.percent != null ? `${num(d.percent, lang)}%` : ''].filter(Boolean)
  const change = parts.length === 2 ? t('catalogueEditor.deltaEither', { a: parts[0], b: parts[1] }) : parts[0] ?? ''
  return t('catalogueEditor.deltaWithin', { change, window: windowText(d.window_hours, t) })
}

/**
 * The age bands [from, to) (to null: no end) that no critical band covers, once the analyte
 * has any: a value at such an age alerts no one, so the editor says so before saving.
 */
export function criticalGaps(bands: Pick<CriticalBand, 'age_from_months' | 'age_to_months'>[]): { from: number; to: number | null }[] {
  const valid = bands
    .filter((b) => Number.isInteger(b.age_from_months) && b.age_from_months >= 0 && (b.age_to_months == null || b.age_to_months > b.age_from_months))
    .sort((a, b) => a.age_from_months - b.age_from_months)
  if (valid.length === 0) return []
  const gaps: { from: number; to: number | null }[] = []
  let covered = 0 // every age below this is covered
  for (const b of valid) {
    if (b.age_from_months > covered) gaps.push({ from: covered, to: b.age_from_months })
    covered = b.age_to_months == null ? Infinity : Math.max(covered, b.age_to_months)
    if (covered === Infinity) break
  }
  if (covered !== Infinity) gaps.push({ from: covered, to: null })
  return gaps
}
