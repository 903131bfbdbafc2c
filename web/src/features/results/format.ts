// How results read: numbers in the reader's decimal notation, UCUM units as people write
// them (in Russian, Cyrillic), flags as words (never colour alone), ranges as "low–high".
import type { TFunction } from 'i18next'
import type { CriticalAlert, LabResult } from './api/types'
import { unitLabel } from '../../lib/units'

export { UNIT_KEYS, unitLabel } from '../../lib/units'

/** Decimal text ("7.0") in the reader's notation (7,0 in Russian and Vietnamese). */
export function decimal(value: string | null | undefined, lang: string): string {
  if (value == null) return ''
  return lang === 'ru' || lang === 'vi' ? value.replace('.', ',') : value
}

/** A number with its unit: "7.0 mmol/L". */
export function quantity(t: TFunction, value: string | null | undefined, unit: string, lang: string): string {
  const u = unitLabel(t, unit)
  return u ? `${decimal(value, lang)} ${u}` : decimal(value, lang)
}

/** The known coded answers, each with its words in every locale (1+…4+ read as written). A
 * reactive or indeterminate screen says it needs confirmatory testing. */
export const ANSWERS = ['negative', 'positive', 'trace', 'detected', 'not_detected', 'reactive', 'non-reactive', 'indeterminate'] as const

export function answerLabel(t: TFunction, answer: string): string {
  return (ANSWERS as readonly string[]).includes(answer) ? t(`results.answers.${answer}`) : answer
}

/**
 * A result as it reads: "7.0 mmol/L (126 mg/dL)" for a number typed in another unit, the
 * answer's words for a coded result, the text of a report.
 */
/** A censored value's comparator as written before the number. */
export const COMPARATOR_SIGNS: Record<string, string> = { '<': '< ', '<=': '≤ ', '>': '> ', '>=': '≥ ' }

export function resultText(t: TFunction, r: LabResult, lang: string): string {
  switch (r.type) {
    case 'numeric': {
      const main = (COMPARATOR_SIGNS[r.comparator ?? ''] ?? '') + quantity(t, r.value, r.unit, lang)
      return r.entered_unit && r.entered_unit !== r.unit ? `${main} (${quantity(t, r.entered, r.entered_unit, lang)})` : main
    }
    case 'coded':
      return answerLabel(t, r.answer)
    default:
      return r.text
  }
}

/** The range that applied, "3.5–5.1 mmol/L", "≥ 3.5", "≤ 5.1", or '' without one. */
export function rangeText(t: TFunction, r: { low?: string | null; high?: string | null }, unit: string, lang: string): string {
  const u = unitLabel(t, unit)
  const tail = u ? ` ${u}` : ''
  if (r.low != null && r.high != null) return `${decimal(r.low, lang)}–${decimal(r.high, lang)}${tail}`
  if (r.low != null) return `≥ ${decimal(r.low, lang)}${tail}`
  if (r.high != null) return `≤ ${decimal(r.high, lang)}${tail}`
  return ''
}

/** Why no reference range applied, or that the one applied is not sex-specific; '' when
 * neither (the server's range note). */
export const RANGE_NOTES = ['any_sex', 'no_band', 'no_birth_date', 'censored'] as const

export function rangeNote(t: TFunction, note: string | null | undefined): string {
  return note && (RANGE_NOTES as readonly string[]).includes(note) ? t(`results.rangeNotes.${note}`) : ''
}

/** The flags of HL7 table 0078 a result may carry, and whether each needs attention. */
export const FLAGS = ['N', 'L', 'H', 'LL', 'HH', 'A', 'AA'] as const
export type Flag = (typeof FLAGS)[number]

export const isCritical = (flag: string) => flag === 'LL' || flag === 'HH' || flag === 'AA'
export const isAbnormal = (flag: string) => flag !== '' && flag !== 'N'

/** The tag colour of a flag (its words always go with it). */
export function flagColor(flag: string): string | undefined {
  if (isCritical(flag)) return 'red'
  if (isAbnormal(flag)) return 'orange'
  return undefined
}

/** The order states, in the order an order passes them. */
export const ORDER_STATUSES = ['ordered', 'collected', 'preliminary', 'final', 'reviewed', 'cancelled', 'not_done'] as const

export function statusColor(status: string): string | undefined {
  switch (status) {
    case 'final':
      return 'blue'
    case 'reviewed':
      return 'green'
    case 'preliminary':
      return 'gold'
    case 'cancelled':
    case 'not_done':
      return 'default'
  }
  return 'cyan'
}

/** Whole minutes from an ISO time to now (at least 0): how long an alert has waited. */
export function minutesSince(iso: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - new Date(iso).getTime()) / 60_000))
}

/** Whole days from an ISO time to now (at least 0). */
export function daysSince(iso: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - new Date(iso).getTime()) / 86_400_000))
}

/** A person's age in completed months on a day (the server's MonthsOld). */
export function monthsOld(birth: string, on: Date): number {
  const [y, m, d] = birth.split('-').map(Number)
  if (!y || !m || !d) return -1
  let months = (on.getFullYear() - y) * 12 + (on.getMonth() + 1 - m)
  const last = new Date(on.getFullYear(), on.getMonth() + 1, 0).getDate()
  if (on.getDate() < Math.min(d, last)) months--
  return Math.max(months, 0)
}

interface Band {
  sex: string
  age_from_months: number
  age_to_months?: number | null
  low?: number | null
  high?: number | null
}

/**
 * The range that applies to a sex at an age (the server's RangeFor): the person's own sex
 * before "any"; of several, the strictest bounds; a sex neither male nor female gets the
 * union of the sexes' bands (anySex); none when none covers them.
 */
export function rangeFor<R extends Band>(
  ranges: R[],
  sex: string,
  months: number,
): { low: number | null; high: number | null; anySex?: boolean } | undefined {
  if (months < 0) return undefined
  const fits = ranges.filter((r) => months >= r.age_from_months && (r.age_to_months == null || months < r.age_to_months))
  const own = fits.filter((r) => r.sex === sex)
  const pick = own.length > 0 ? own : fits.filter((r) => r.sex === 'any')
  if (pick.length === 0 && sex !== 'male' && sex !== 'female') {
    const other = fits.filter((r) => r.sex !== 'any')
    if (other.length === 0) return undefined
    const lows = other.map((r) => r.low)
    const highs = other.map((r) => r.high)
    return {
      low: lows.some((x) => x == null) ? null : Math.min(...(lows as number[])),
      high: highs.some((x) => x == null) ? null : Math.max(...(highs as number[])),
      anySex: true,
    }
  }
  if (pick.length === 0) return undefined
  const lows = pick.map((r) => r.low).filter((x): x is number => x != null)
  const highs = pick.map((r) => r.high).filter((x): x is number => x != null)
  return { low: lows.length ? Math.max(...lows) : null, high: highs.length ? Math.min(...highs) : null }
}

interface CriticalBand {
  age_from_months: number
  age_to_months?: number | null
  critical_low?: number | null
  critical_high?: number | null
}

/**
 * The analyte's critical limits at an age in months (the server's CriticalFor): the strictest
 * where bands overlap; an unknown age (months < 0) takes the strictest of every band, as the
 * server does, since a critical value must never go unannounced for want of a birth date.
 * None when no band gives a limit.
 */
export function criticalFor(bands: CriticalBand[], months: number): { low: number | null; high: number | null } | undefined {
  const fits = bands.filter((b) => months < 0 || (months >= b.age_from_months && (b.age_to_months == null || months < b.age_to_months)))
  const lows = fits.map((b) => b.critical_low).filter((x): x is number => x != null)
  const highs = fits.map((b) => b.critical_high).filter((x): x is number => x != null)
  if (lows.length === 0 && highs.length === 0) return undefined
  return { low: lows.length ? Math.max(...lows) : null, high: highs.length ? Math.min(...highs) : null }
}

/** Critical limits as the entry form says them: "≤ 2.8; ≥ 6.5 mmol/L". */
export function criticalText(t: TFunction, c: { low: number | null; high: number | null }, unit: string, lang: string): string {
  const u = unitLabel(t, unit)
  const limits = [c.low != null ? `≤ ${decimal(String(c.low), lang)}` : '', c.high != null ? `≥ ${decimal(String(c.high), lang)}` : ''].filter(Boolean)
  return `${limits.join('; ')}${u ? ` ${u}` : ''}` // "; ": a comma is the decimal sign in ru and vi
}

/** Why an alert was withdrawn: its category and the reason typed. */
export const withdrawnWhy = (t: TFunction, a: CriticalAlert) =>
  [a.withdrawn_category && t(`results.withdrawnCategories.${a.withdrawn_category}`), a.withdrawn_reason].filter(Boolean).join(': ')
