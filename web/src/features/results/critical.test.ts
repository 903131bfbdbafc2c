import type { TFunction } from 'i18next'
import { describe, expect, it } from 'vitest'
import { criticalFor, criticalText } from './format'

// The critical limits the entry form shows for the patient's age, as the server applies them
// (internal/catalogue/analyte.go CriticalFor), from potassium's bands
// (internal/catalogue/lab_critical_limits.tsv: Kost 1991 for children, CAP surveys for adults).
const potassium = [
  { age_from_months: 0, age_to_months: 1, critical_low: 2.8, critical_high: 7.0 },
  { age_from_months: 1, age_to_months: 216, critical_low: 2.8, critical_high: 6.5 },
  { age_from_months: 216, age_to_months: null, critical_low: 3.0, critical_high: 6.0 },
]

describe('criticalFor', () => {
  it.each([
    // who, age in months (-1: birth date unknown), limits
    ['a newborn of 2 weeks', 0, { low: 2.8, high: 7.0 }],
    ['an infant on the day they turn one month', 1, { low: 2.8, high: 6.5 }],
    ['a 7-year-old (issue 52: K 7.0 is critical)', 84, { low: 2.8, high: 6.5 }],
    ['the day before the 18th birthday', 215, { low: 2.8, high: 6.5 }],
    ['an adult from the 18th birthday', 216, { low: 3.0, high: 6.0 }],
    ['an 80-year-old', 960, { low: 3.0, high: 6.0 }],
    ['a patient without a birth date: the strictest of every band', -1, { low: 3.0, high: 6.0 }],
  ])('%s', (_who, months, limits) => {
    expect(criticalFor(potassium, months)).toEqual(limits)
  })

  it('gives the strictest limits where bands overlap, a missing side as none, and nothing without bands', () => {
    expect(criticalFor([{ age_from_months: 0, age_to_months: null, critical_low: 2.5, critical_high: null }, { age_from_months: 12, age_to_months: null, critical_low: 2.9, critical_high: null }], 24)).toEqual({ low: 2.9, high: null })
    expect(criticalFor([{ age_from_months: 216, age_to_months: null, critical_low: 3.0, critical_high: 6.0 }], 84)).toBeUndefined()
    expect(criticalFor([], 300)).toBeUndefined()
  })
})

describe('criticalText', () => {
  const t = ((key: string) => ({ 'results.units.mmolL': 'mmol/L', 'results.units.none': '' })[key] ?? key) as unknown as TFunction
  it.each([
    ['en', { low: 2.8, high: 6.5 }, 'mmol/L', '≤ 2.8; ≥ 6.5 mmol/L'],
    ['ru', { low: 2.8, high: 6.5 }, 'mmol/L', '≤ 2,8; ≥ 6,5 mmol/L'],
    ['en', { low: null, high: 500 }, 'mmol/L', '≥ 500 mmol/L'],
    ['vi', { low: 1.5, high: null }, '{INR}', '≤ 1,5'],
  ])('%s %j %s', (lang, limits, unit, said) => {
    expect(criticalText(t, limits, unit, lang)).toBe(said)
  })
})
