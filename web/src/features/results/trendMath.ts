// The numbers behind the trends: which vitals chart together, and a canonical value in
// another unit of its analyte (the unit toggle), as the server converts it; the axes of the
// chart (the reference band always in sight, ticks that name distinct times).
import dayjs from 'dayjs'
import { formatDate, formatDay, formatMonth } from '../../lib/time'

export interface VitalsRow {
  appointment_id: number
  day: string
  vitals: Record<string, number | null | undefined>
  bmi: number | null
}

interface Field {
  label: string
  unit: string
  read: (d: VitalsRow) => number | null
}

const field = (key: string, label: string, unit: string): Field => ({ label, unit, read: (d) => d.vitals[key] ?? null })

/** The vitals charts: blood pressure's two numbers on one chart, the rest alone. */
export const VITAL_SERIES: { key: string; label: string; decimals: number; fields: Field[] }[] = [
  { key: 'bp', label: 'results.vitals.bp', decimals: 0, fields: [field('bp_systolic', 'results.vitals.systolic', 'results.vitals.mmHg'), field('bp_diastolic', 'results.vitals.diastolic', 'results.vitals.mmHg')] },
  { key: 'hr', label: 'results.vitals.hr', decimals: 0, fields: [field('heart_rate', 'results.vitals.hr', 'results.vitals.bpm')] },
  { key: 'temp', label: 'results.vitals.temp', decimals: 1, fields: [field('temperature', 'results.vitals.temp', 'results.vitals.celsius')] },
  { key: 'weight', label: 'results.vitals.weight', decimals: 1, fields: [field('weight', 'results.vitals.weight', 'results.vitals.kg')] },
  { key: 'bmi', label: 'results.vitals.bmi', decimals: 1, fields: [{ label: 'results.vitals.bmi', unit: 'results.vitals.kgm2', read: (d) => d.bmi }] },
  { key: 'spo2', label: 'results.vitals.spo2', decimals: 0, fields: [field('spo2', 'results.vitals.spo2', 'results.vitals.percent')] },
]

interface Convertible {
  unit: string
  units: { unit: string; conversion: string; factor?: number }[]
}

/** A canonical value in unit: divided by the unit's factor, or HbA1c's IFCC equation. */
export function convert(a: Convertible, canonical: number, unit: string): number {
  if (unit === a.unit) return canonical
  const u = a.units.find((x) => x.unit === unit)
  if (!u) return canonical
  if (u.conversion === 'hba1c_ifcc') return (canonical - 2.15) * 10.929
  return u.factor ? canonical / u.factor : canonical
}

/** A y-axis: its ends and the step between its round ticks. */
export interface ValueAxis {
  min: number
  max: number
  interval: number
}

// The smallest of 1, 2, 2.5, 5 × 10ⁿ not under raw: ticks a reader counts without effort.
function niceStep(raw: number): number {
  const exp = 10 ** Math.floor(Math.log10(raw))
  const f = raw / exp
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * exp
}

/**
 * The y-axis of a trend: it holds every value and every bound given (the reference band's
 * low and high, whichever exist), a tenth of the span beyond them, on round ticks. Fitting the
 * values alone would put a high value on the floor, looking normal, with the band out of sight.
 * It starts at zero, not below, when nothing is negative. Undefined without a number.
 */
export function valueAxis(values: (number | null | undefined)[], bounds: (number | null | undefined)[]): ValueAxis | undefined {
  const xs = [...values, ...bounds].filter((x): x is number => x != null && Number.isFinite(x))
  if (xs.length === 0) return undefined
  const lo = Math.min(...xs)
  const hi = Math.max(...xs)
  const pad = hi > lo ? (hi - lo) / 10 : Math.abs(lo) / 10 || 1
  const from = lo >= 0 ? Math.max(0, lo - pad) : lo - pad
  const to = hi + pad
  const interval = niceStep((to - from) / 5)
  const digits = Math.max(0, 1 - Math.floor(Math.log10(interval))) // 2.5 × 10ⁿ needs one more
  const round = (x: number) => Number(x.toFixed(digits))
  return { min: round(Math.floor(from / interval) * interval), max: round(Math.ceil(to / interval) * interval), interval }
}

/** What a time axis's ticks name: the hour of one day, days, or months of years. */
export type TimeScale = 'time' | 'day' | 'month'

/** An x-axis of time: its ends (ms), where its ticks stand, and what they name. */
export interface TimeAxis {
  min: number
  max: number
  ticks: number[]
  scale: TimeScale
}

type Unit = 'minute' | 'hour' | 'day' | 'month' | 'year'

// The tick steps of each scale, finest first; the first that gives at most MAX_TICKS is used.
const STEPS: Record<TimeScale, [number, Unit][]> = {
  time: [[5, 'minute'], [10, 'minute'], [15, 'minute'], [30, 'minute'], [1, 'hour'], [2, 'hour'], [3, 'hour'], [4, 'hour'], [6, 'hour']],
  day: [[1, 'day'], [2, 'day'], [3, 'day'], [7, 'day'], [14, 'day'], [1, 'month'], [2, 'month'], [3, 'month']],
  month: [[1, 'month'], [2, 'month'], [3, 'month'], [6, 'month'], [1, 'year'], [2, 'year'], [5, 'year'], [10, 'year']],
}
const MAX_TICKS = 6
const HOUR = 3_600_000
const YEAR = 365 * 24 * HOUR

// The ticks from min to max every n units, on the local calendar's round marks: minutes and
// hours from midnight, days from min's day, months and years from January.
function ticksEvery(min: number, max: number, n: number, unit: Unit): number[] {
  let t: dayjs.Dayjs
  if (unit === 'minute' || unit === 'hour') {
    const day = dayjs(min).startOf('day')
    const step = n * (unit === 'hour' ? 60 : 1)
    t = day.add(Math.ceil(dayjs(min).diff(day, 'minute', true) / step) * step, 'minute')
  } else if (unit === 'day') {
    t = dayjs(min).startOf('day')
    if (t.valueOf() < min) t = t.add(1, 'day')
  } else {
    const months = n * (unit === 'year' ? 12 : 1)
    const start = dayjs(min).startOf('month')
    const index = start.year() * 12 + start.month()
    t = start.add((months - (index % months)) % months, 'month')
    if (t.valueOf() < min) t = t.add(months, 'month')
  }
  const out: number[] = []
  for (; t.valueOf() <= max && out.length <= MAX_TICKS; t = unit === 'year' ? t.add(n, 'year') : t.add(n, unit)) out.push(t.valueOf())
  return out
}

/**
 * The x-axis of a trend, spaced by time, whose tick labels all differ: points of one day get
 * ticks at round minutes or hours of that day (named by time, the date once); points over
 * days, ticks at days or months (named by date); points over more than a year, ticks at
 * months or years (named by month and year). A single point gets one tick, at itself.
 * Undefined without a point.
 */
export function timeAxis(times: number[]): TimeAxis | undefined {
  if (times.length === 0) return undefined
  const first = Math.min(...times)
  const last = Math.max(...times)
  const span = last - first
  if (span === 0) return { min: first - HOUR, max: first + HOUR, ticks: [first], scale: 'time' }
  const scale: TimeScale = dayjs(first).isSame(last, 'day') ? 'time' : span > YEAR ? 'month' : 'day'
  let min: number
  let max: number
  if (scale === 'time') {
    const pad = Math.max(span / 20, 5 * 60_000)
    min = Math.max(first - pad, dayjs(first).startOf('day').valueOf())
    max = Math.min(last + pad, dayjs(first).endOf('day').valueOf())
  } else {
    const unit = scale === 'day' ? 'day' : 'month'
    min = dayjs(first - span / 30).startOf(unit).valueOf()
    max = dayjs(last + span / 30).startOf(unit).add(1, unit).valueOf()
  }
  const steps = STEPS[scale]
  for (const [n, unit] of steps) {
    const ticks = ticksEvery(min, max, n, unit)
    if (ticks.length <= MAX_TICKS) return { min, max, ticks, scale }
  }
  const [n, unit] = steps[steps.length - 1]
  return { min, max, ticks: ticksEvery(min, max, n, unit).slice(0, MAX_TICKS), scale }
}

/** A tick's label in lang: its time (the first also its date), its date, or its month and year. */
export function tickLabel(axis: TimeAxis, tick: number, lang: string): string {
  if (axis.scale === 'month') return formatMonth(tick, lang)
  if (axis.scale === 'day') return formatDay(tick, lang)
  const time = formatDate(tick, 'HH:mm')
  return tick === axis.ticks[0] ? `${time}\n${formatDay(tick, lang)}` : time
}
