// @vitest-environment jsdom
// The chart's Growth card: the indicator switch, the chart of the SD curves, the points with
// their z-scores and percentiles, the flags, the corrected age of a premature child, the
// notice for a sex the WHO tables do not cover, and the print of the card alone.
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setLanguage } from '../../lib/i18n'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import type { Growth } from './api/getGrowth'
import { growthOption, plotted } from './growthChart'
import { PatientGrowth } from './PatientGrowth'

// ECharts draws on a canvas jsdom has not: the chart stands here as its named figure.
vi.mock('../../components/LazyChart', () => ({ LazyChart: ({ label, testId }: { label: string; testId?: string }) => <div role="img" aria-label={label} data-testid={testId} /> }))

afterEach(async () => {
  cleanup()
  await setLanguage('en')
})

const none = { wfa: null, lhfa: null, wfl: null, hcfa: null, bfa: null }
const rows = (values: number[][]) => values.map((v, i) => ({ age_days: Math.round(i * 30.4375), values: v }))
const growth: Growth = {
  sex: 'male',
  birth_date: '2025-01-10',
  gestation_weeks: 32,
  as_of: '2026-01-10',
  age_days: 365,
  corrected: true,
  points: [
    { on: '2025-07-10', age_days: 181, corrected_age_days: 125, weight: 5.9, height: 62.5, head: 40.1, bmi: 15.1, measure: 'length', z: { ...none, wfa: -1.12, lhfa: -0.8 }, pct: { ...none, wfa: 13.1, lhfa: 21.2 } },
    { on: '2026-01-10', age_days: 365, corrected_age_days: 309, weight: 7.1, height: 70.2, head: 44.0, bmi: 14.4, measure: 'length', z: { ...none, wfa: -2.31, wfl: -2.05 }, pct: { ...none, wfa: 1.0, wfl: 2.0 } },
  ],
  flags: [
    { on: '2026-01-10', code: 'underweight', indicator: 'wfa', z: -2.31 },
    { on: '2026-01-10', code: 'wasting', indicator: 'wfl', z: -2.05 },
  ],
  curves: {
    wfa: { sds: [-3, -2, 0, 2, 3], x: 'age_days', rows: rows([[2.1, 2.5, 3.3, 4.4, 5], [2.9, 3.4, 4.5, 5.8, 6.6]]) },
    wfl: { sds: [-3, -2, 0, 2, 3], x: 'cm', measure: 'length', rows: [{ age_days: 0, cm: 60, values: [4.7, 5.1, 6, 7.1, 7.8] }] },
  },
  source: 'WHO',
  unscored: '',
  message: '',
}

const card = async (data: Growth, lang?: string) => {
  const shown = await renderScreen(<PatientGrowth patientId={5} patientName="Minh Trần" birthDate="2025-01-10" sex="male" />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/5/growth': data } })
  if (lang) await setLanguage(lang as 'ru')
  return shown
}

describe('PatientGrowth', () => {
  it('shows the flags, the corrected age, the chart and the points with z-scores and percentiles', async () => {
    const { container } = await card(growth)
    const table = await screen.findByRole('table', { name: 'Growth measurements with z-scores and percentiles' })
    expect(screen.getByRole('img', { name: 'Weight-for-age of Minh Trần on the WHO SD curves' })).toBeTruthy()
    const flags = screen.getAllByTestId('growth-flag').map((f) => f.textContent)
    expect(flags[0]).toContain('Underweight')
    expect(flags[0]).toContain('-2.31')
    expect(flags[1]).toContain('Wasting')
    expect(screen.getByTestId('growth-corrected').textContent).toContain('Born at 32 weeks')
    const last = within(table).getAllByRole('row')[2]
    expect(last.textContent).toContain('-2.31')
    expect(last.textContent).toContain('1.0')
    expect(within(table).getAllByTestId('corrected-age')[0].textContent).toBe('corrected 4 mo 3 d')
    expect(await axeViolations(container)).toEqual([])
  })

  it('switches the indicator: the chart and the z-score column follow', async () => {
    await card(growth)
    await screen.findByRole('table')
    const wfl = screen.getByRole('radio', { name: 'Weight-for-length/height' })
    fireEvent.click(wfl)
    expect(screen.getByRole('img', { name: 'Weight-for-length/height of Minh Trần on the WHO SD curves' })).toBeTruthy()
    expect(screen.getByRole('columnheader', { name: 'z (WFL/H)' })).toBeTruthy()
    // No curve for head circumference here: said, not an empty chart.
    fireEvent.click(screen.getByRole('radio', { name: 'Head circumference-for-age' }))
    expect(screen.getByText("The WHO tables do not cover this indicator at the child's age.")).toBeTruthy()
  })

  it('says why there are no z-scores for a sex the WHO tables do not cover, in Russian', async () => {
    await card({ ...growth, sex: 'other', corrected: false, flags: [], curves: {}, unscored: 'sex', message: 'Стандарты роста ВОЗ даны для мальчиков и девочек.' }, 'ru')
    expect((await screen.findByTestId('growth-unscored')).textContent).toContain('ВОЗ')
    expect(screen.getByRole('heading', { name: 'Физическое развитие' })).toBeTruthy()
    expect(screen.queryByRole('img')).toBeNull()
  })

  it('prints the card alone', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => {
      // A copy of the card, with who the child is, is what goes to the printer.
      const copy = document.querySelector('[data-testid=growth-print]')!
      expect(copy.parentElement).toBe(document.body)
      expect(copy.textContent).toContain('Minh Trần')
      expect(copy.querySelector('table')).toBeTruthy()
    })
    await card(growth)
    await screen.findByRole('table')
    fireEvent.click(screen.getByRole('button', { name: 'Print' }))
    expect(print).toHaveBeenCalledOnce()
    window.dispatchEvent(new Event('afterprint'))
    expect(document.querySelector('[data-testid=growth-print]')).toBeNull()
  })
})

describe('growthOption', () => {
  it('draws the five SD lines and the child at the corrected age, in months under 5 years', () => {
    const option = growthOption(growth, 'wfa', { x: 'Age', y: 'kg', sd: String, child: 'Minh', value: String }) as { series: { name: string; data: number[][] }[] }
    expect(option.series.map((s) => s.name)).toEqual(['-3', '-2', '0', '2', '3', 'Minh'])
    expect(option.series[5].data[0]).toEqual([125 / 30.4375, 5.9])
    expect(plotted(growth.points[0], 'wfl', false)).toBeNull() // no weight-for-length score: not plotted
    expect(plotted(growth.points[1], 'wfl', false)).toEqual([70.2, 7.1])
    expect(growthOption(growth, 'bfa', { x: '', y: '', sd: String, child: '', value: String })).toBeNull()
  })
})
