// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { LineFindings, type Finding } from './MedicineSafety'

beforeAll(() => initI18n('en'))
afterEach(cleanup)

const base = { line: 0, tier: 'high', blocking: false, requires_reason: true, overridden: false, source: 'NPS MedicineWise' } as const
const findings: Finding[] = [
  { ...base, key: 'dose:max:300:12', kind: 'dose_above_max', dosing: { dose_mg: 300, weight_kg: 12, max_dose_mg: 180 } },
  { ...base, key: 'dose:day:1080:12', kind: 'dose_above_daily_max', dosing: { day_mg: 1080, weight_kg: 12, max_day_mg: 720 } },
  { ...base, key: 'dose:age:3', kind: 'dose_under_min_age', dosing: { min_age_months: 3 } },
  { ...base, key: 'dose:weight:5', kind: 'dose_under_min_weight', dosing: { weight_kg: 4.2, min_weight_kg: 5 } },
  { ...base, key: 'weight:missing', kind: 'weight_missing', dosing: { limit_days: 30 } },
  { ...base, key: 'weight:stale:2026-10-17', kind: 'weight_stale', dosing: { weight_kg: 12, weight_on: '2026-10-17', weight_age_days: 45, limit_days: 30 } },
  { ...base, key: 'dose:max:2000:0', kind: 'dose_above_max', dosing: { dose_mg: 2000, max_dose_mg: 1000 } },
  { ...base, key: 'dose:unreadable:300', kind: 'dose_unreadable', dosing: {} },
  { ...base, key: 'dose:mismatch:300:180:4:4', kind: 'dose_mismatch', dosing: { dose_mg: 300, box_dose_mg: 180, doses_per_day: 4, box_doses_per_day: 4 } },
] as Finding[]

describe('dose findings', () => {
  it('say the numbers of a dose by weight, tagged as a dose, with the table’s source', async () => {
    const { container } = render(<LineFindings findings={findings} />)
    const items = screen.getAllByRole('listitem').map((li) => li.textContent)
    expect(items[0]).toContain('The dose (300 mg) is above the most one dose may hold for 12 kg (180 mg).')
    expect(items[0]).toContain('Dose')
    expect(items[0]).toContain('NPS MedicineWise')
    expect(items[1]).toContain("A day's doses (1\u202f080 mg) are above the most for 12 kg (720 mg a day).")
    expect(items[2]).toContain('(from 3 months)')
    expect(items[3]).toContain('The child (4.2 kg) is lighter than this medicine is for (from 5 kg).')
    expect(items[4]).toContain('no weight is recorded')
    expect(items[5]).toContain('a weight 45 days old (12 kg on 2026-10-17), older than 30 days')
    expect(items[6]).toContain('The dose (2\u202f000 mg) is above the most one dose may hold at any weight (1\u202f000 mg).')
    expect(items[7]).toContain('The dose cannot be read in mg')
    expect(items[8]).toContain('The dose by weight (180 mg, 4 a day) is not what the prescription prints (300 mg, 4 a day)')
    expect(await axeViolations(container)).toEqual([])
  })
})
