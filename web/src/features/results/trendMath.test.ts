import { describe, expect, it } from 'vitest'
import { convert, tickLabel, timeAxis, valueAxis, VITAL_SERIES } from './trendMath'

const glucose = { unit: 'mmol/L', units: [{ unit: 'mg/dL', conversion: 'factor', factor: 0.05551 }] }
const hba1c = { unit: '%', units: [{ unit: 'mmol/mol', conversion: 'hba1c_ifcc' }] }

describe('trend unit toggle', () => {
  it('converts a canonical value both ways as the server does', () => {
    expect(convert(glucose, 7.0, 'mg/dL')).toBeCloseTo(126.1, 1)
    expect(convert(glucose, 7.0, 'mmol/L')).toBe(7.0)
    expect(convert(hba1c, 6.5, 'mmol/mol')).toBeCloseTo(47.5, 1)
    expect(convert(hba1c, 6.5, 'unknown')).toBe(6.5)
  })
  it('charts both blood pressure numbers together', () => {
    const bp = VITAL_SERIES.find((s) => s.key === 'bp')!
    expect(bp.fields).toHaveLength(2)
    const row = { appointment_id: 1, day: '2026-01-01', vitals: { bp_systolic: 120, bp_diastolic: 80 }, bmi: null }
    expect(bp.fields.map((f) => f.read(row))).toEqual([120, 80])
  })
})

// The y-axis holds the reference band whatever the values (clinic-day review m14: potassium
// 6.8 → 5.4 was drawn on 5.4–6.9, the 3.5–5.1 band off the chart and 5.4 on the floor).
describe('trend value axis', () => {
  const cases: { name: string; values: (number | null)[]; bounds: (number | null)[]; want: { min: number; max: number; interval: number } }[] = [
    { name: 'potassium 6.8 then 5.4 (band 3.5–5.1 below every value): the band in sight, 5.4 above it', values: [6.8, 5.4], bounds: [3.5, 5.1], want: { min: 3, max: 8, interval: 1 } },
    { name: 'potassium 2.4 (band 3.5–5.1 above the value)', values: [2.4], bounds: [3.5, 5.1], want: { min: 2, max: 6, interval: 1 } },
    { name: 'glucose within its band 3.9–5.5', values: [5.0, 5.5], bounds: [3.9, 5.5], want: { min: 3.5, max: 6, interval: 0.5 } },
    { name: 'eGFR 45 then 38, band only a low bound (≥ 60)', values: [45, 38], bounds: [60, null], want: { min: 30, max: 70, interval: 10 } },
    { name: 'LDL 4.2 then 3.8, band only a high bound (< 3.0)', values: [4.2, 3.8], bounds: [null, 3.0], want: { min: 2.5, max: 4.5, interval: 0.5 } },
    { name: 'CRP 0.5 then 86 (band ≤ 5): starts at zero, not below', values: [0.5, 86], bounds: [null, 5], want: { min: 0, max: 100, interval: 20 } },
    { name: 'a single heart rate, no band', values: [72], bounds: [], want: { min: 60, max: 80, interval: 5 } },
    { name: 'a missing value is left out', values: [null, 6.8], bounds: [3.5, 5.1], want: { min: 3, max: 8, interval: 1 } },
  ]
  it.each(cases)('$name', ({ values, bounds, want }) => {
    const axis = valueAxis(values, bounds)!
    expect(axis).toEqual(want)
    for (const x of [...values, ...bounds]) if (x != null && x > 0) expect(x > axis.min && x < axis.max, `${x} inside ${axis.min}–${axis.max}`).toBe(true)
  })
  it('has no axis without a number', () => {
    expect(valueAxis([null], [null])).toBeUndefined()
  })
})

// The x-axis is spaced by time and its ticks name distinct times (m14: five ticks all read
// "2026-11-28").
describe('trend time axis', () => {
  const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min).getTime()
  const cases: { name: string; times: number[]; lang: string; scale: string; labels?: string[] }[] = [
    {
      name: 'five results of one morning: hours, the date once',
      times: [at(2026, 11, 28, 8, 0), at(2026, 11, 28, 9, 5), at(2026, 11, 28, 10, 0), at(2026, 11, 28, 11, 30), at(2026, 11, 28, 12, 30)],
      lang: 'en',
      scale: 'time',
      labels: ['08:00\n2026-11-28', '09:00', '10:00', '11:00', '12:00'],
    },
    { name: 'two results an hour apart, in Russian', times: [at(2026, 11, 28, 10, 20), at(2026, 11, 28, 11, 20)], lang: 'ru', scale: 'time', labels: ['10:15\n28.11.2026', '10:30', '10:45', '11:00', '11:15'] },
    { name: 'results over three weeks: dates', times: [at(2026, 11, 1, 9), at(2026, 11, 10, 9), at(2026, 11, 20, 9)], lang: 'vi', scale: 'day' },
    { name: 'vitals of two days (days without a time)', times: [at(2026, 11, 27), at(2026, 11, 28)], lang: 'en', scale: 'day' },
    {
      name: 'results over three years: months of years',
      times: [at(2023, 11, 28, 9), at(2025, 2, 3, 9), at(2026, 11, 28, 9)],
      lang: 'ru',
      scale: 'month',
      labels: ['01.2024', '01.2025', '01.2026', '01.2027'],
    },
    { name: 'results over three years in Chinese', times: [at(2023, 11, 28, 9), at(2026, 11, 28, 9)], lang: 'zh', scale: 'month', labels: ['2024-01', '2025-01', '2026-01', '2027-01'] },
    { name: 'a single result: one tick at it, with its date', times: [at(2026, 11, 28, 8, 10)], lang: 'en', scale: 'time', labels: ['08:10\n2026-11-28'] },
  ]
  it.each(cases)('$name', ({ times, lang, scale, labels }) => {
    const axis = timeAxis(times)!
    expect(axis.scale).toBe(scale)
    const shown = axis.ticks.map((t) => tickLabel(axis, t, lang))
    if (labels) expect(shown).toEqual(labels)
    expect(new Set(shown).size, shown.join(' | ')).toBe(shown.length)
    expect(axis.ticks.length).toBeGreaterThanOrEqual(times.length > 1 ? 2 : 1)
    expect(axis.ticks.length).toBeLessThanOrEqual(6)
    for (const t of [...times, ...axis.ticks]) expect(t >= axis.min && t <= axis.max).toBe(true)
    for (const t of times) expect(t > axis.min && t < axis.max, 'a point off the axis edge').toBe(true)
  })
  it('has no axis without a point', () => {
    expect(timeAxis([])).toBeUndefined()
  })
})
