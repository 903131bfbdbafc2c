import { describe, expect, it } from 'vitest'
import type { TFunction } from 'i18next'
import { daysSince, decimal, minutesSince, flagColor, monthsOld, rangeFor, rangeNote, rangeText, resultText, unitLabel } from './format'
import type { LabResult } from './api/types'

const t = ((key: string) => ({ 'results.units.mmolL': 'mmol/L', 'results.units.mgdL': 'mg/dL', 'results.units.none': '', 'results.answers.positive': 'Positive', 'results.answers.reactive': 'Reactive — needs confirmatory testing', 'results.rangeNotes.no_band': 'No reference range for this age and sex' })[key] ?? key) as unknown as TFunction

const base: LabResult = {
  id: 1, order_id: 1, analyte: 'GLU', label: 'Glucose', loinc: '', type: 'numeric', entered: '126', entered_unit: 'mg/dL', value: '7.0', unit: 'mmol/L',
  answer: '', text: '', range: { low: '3.9', high: '7.8', critical_low: null, critical_high: null, source: 'catalogue', note: '' }, comparator: '', flag: 'N', delta: '', status: 'final',
  current: true, replaces: null, observed_at: '', recorded_at: '', recorded_by: null, recorded_by_name: '', performer: '',
}

describe('results read as people write them', () => {
  it('shows a number typed in another unit in both', () => {
    expect(resultText(t, base, 'en')).toBe('7.0 mmol/L (126 mg/dL)')
    expect(resultText(t, base, 'ru')).toBe('7,0 mmol/L (126 mg/dL)')
    expect(resultText(t, { ...base, entered_unit: 'mmol/L', entered: '7.0' }, 'en')).toBe('7.0 mmol/L')
  })
  it('reads coded answers and ranges', () => {
    expect(resultText(t, { ...base, type: 'coded', answer: 'positive' }, 'en')).toBe('Positive')
    expect(rangeText(t, { low: '3.5', high: '5.1' }, 'mmol/L', 'vi')).toBe('3,5–5,1 mmol/L')
    expect(rangeText(t, { low: '110', high: null }, 'mmol/L', 'en')).toBe('≥ 110 mmol/L')
    expect(rangeText(t, { low: null, high: null }, 'mmol/L', 'en')).toBe('')
    expect(unitLabel(t, '{INR}')).toBe('')
  })
  it('never marks by colour alone: a colour only beside a flag that needs attention', () => {
    expect(flagColor('N')).toBeUndefined()
    expect(flagColor('H')).toBe('orange')
    expect(flagColor('HH')).toBe('red')
    expect(flagColor('AA')).toBe('red')
    expect(decimal(null, 'en')).toBe('')
  })
  it('picks the range of the sex and age of the patient, as the server does', () => {
    const hgb = [
      { sex: 'male', age_from_months: 216, age_to_months: null, low: 135, high: 175 },
      { sex: 'female', age_from_months: 180, age_to_months: null, low: 120, high: 155 },
      { sex: 'any', age_from_months: 60, age_to_months: 144, low: 115, high: null },
    ]
    expect(rangeFor(hgb, 'male', 30 * 12)).toEqual({ low: 135, high: 175 })
    expect(rangeFor(hgb, 'female', 30 * 12)).toEqual({ low: 120, high: 155 })
    expect(rangeFor(hgb, 'male', 8 * 12)).toEqual({ low: 115, high: null })
    // Issue 52: a sex neither male nor female gets the union of the sexes' bands.
    expect(rangeFor(hgb, 'other', 30 * 12)).toEqual({ low: 120, high: 175, anySex: true })
    expect(rangeFor(hgb, 'unknown', 16 * 12)).toEqual({ low: 120, high: 155, anySex: true })
    expect(rangeFor(hgb, 'other', 8 * 12)).toEqual({ low: 115, high: null })
    expect(rangeFor(hgb, 'male', 2)).toBeUndefined()
    expect(monthsOld('2000-01-31', new Date(2000, 1, 28))).toBe(0)
    expect(monthsOld('2000-01-31', new Date(2000, 1, 29))).toBe(1)
    expect(monthsOld('2000-01-31', new Date(2000, 2, 31))).toBe(2)
  })
  it('writes a censored value with its comparator, a reactive screen with its next step, and says when no range applied', () => {
    const tsh: LabResult = { ...base, entered_unit: 'mmol/L', entered: '0.01', value: '0.01', comparator: '<' }
    expect(resultText(t, tsh, 'en')).toBe('< 0.01 mmol/L')
    expect(resultText(t, { ...tsh, comparator: '>=' }, 'ru')).toBe('≥ 0,01 mmol/L')
    expect(resultText(t, { ...base, type: 'coded', answer: 'reactive' }, 'en')).toBe('Reactive — needs confirmatory testing')
    expect(rangeNote(t, 'no_band')).toBe('No reference range for this age and sex')
    expect(rangeNote(t, '')).toBe('')
    expect(rangeNote(t, 'made-up')).toBe('')
  })
  it('counts whole days pending', () => {
    const now = Date.parse('2026-11-26T12:00:00Z')
    expect(daysSince('2026-11-26T01:00:00Z', now)).toBe(0)
    expect(daysSince('2026-11-24T11:00:00Z', now)).toBe(2)
    expect(minutesSince('2026-11-26T11:30:30Z', now)).toBe(29)
    expect(minutesSince('2026-11-26T12:05:00Z', now)).toBe(0)
  })
})
