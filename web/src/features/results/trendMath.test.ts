import { describe, expect, it } from 'vitest'
import { convert, VITAL_SERIES } from './trendMath'

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
