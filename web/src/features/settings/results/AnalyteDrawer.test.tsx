// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../lib/api'
import { renderScreen, user } from '../../../test/render'
import type { AnalyteEdit } from '../api/resultsCatalogue'
import { AnalyteDrawer } from './AnalyteDrawer'

afterEach(cleanup)

// Potassium as the catalogue ships it (internal/catalogue/lab_critical_limits.tsv,
// lab_delta_rules.tsv), trimmed to what the drawer shows.
const potassium = (): AnalyteEdit => ({
  code: 'K',
  loinc: '2823-3',
  type: 'numeric',
  unit: 'mmol/L',
  decimals: 1,
  plausible_low: 1,
  plausible_high: 15,
  answers: '',
  labels: { en: 'Potassium', ru: 'Калий', zh: '钾', vi: 'Kali' },
  ranges: [
    { sex: 'any', age_from_months: 12, age_to_months: 216, low: 3.4, high: 4.7 },
    { sex: 'any', age_from_months: 216, age_to_months: null, low: 3.5, high: 5.1 },
  ],
  critical: [
    { age_from_months: 0, age_to_months: 216, critical_low: 2.8, critical_high: 6.5, source: 'Kost GJ, Pediatrics 1991' },
    { age_from_months: 216, age_to_months: null, critical_low: 3, critical_high: 6, source: 'CAP surveys' },
  ],
  delta_rules: [{ window_hours: 168, percent: null, abs: 1, source: 'CLSI EP33 (2016)' }],
  units: [],
  version: 3,
})

async function open(analyte: AnalyteEdit, put: unknown = (r: { body: unknown }) => r.body) {
  const view = await renderScreen(<AnalyteDrawer analyte={analyte} onClose={vi.fn()} />, {
    me: user(['manage catalogue']),
    api: { 'PUT /lab-analytes/K': put, 'GET /lab-analytes': { data: [] } },
  })
  const drawer = await screen.findByRole('dialog', { name: /Potassium · K/ })
  return { view, drawer }
}

const save = (drawer: HTMLElement) => fireEvent.click(within(drawer).getByTestId('save-analyte'))
const type = (input: HTMLElement, text: string) => fireEvent.input(input, { target: { value: text } })

describe('AnalyteDrawer', () => {
  it('edits critical limits by age and delta checks apart from the reference ranges', async () => {
    const { drawer } = await open(potassium())
    const ranges = within(drawer).getAllByLabelText('Low', { exact: true })
    expect(ranges).toHaveLength(2)
    const critical = within(drawer).getByTestId('critical-bands')
    expect(within(critical).getAllByLabelText('Critical high').map((i) => (i as HTMLInputElement).value)).toEqual(['6.5', '6'])
    expect(within(critical).getAllByLabelText('Source').map((i) => (i as HTMLTextAreaElement).value)).toEqual(['Kost GJ, Pediatrics 1991', 'CAP surveys'])
    // The reference ranges no longer carry critical limits: only the critical list does.
    expect(within(drawer).getAllByLabelText('Critical high')).toHaveLength(2)
    const delta = within(drawer).getByTestId('delta-rules')
    expect((within(delta).getByLabelText('Window, hours') as HTMLInputElement).value).toBe('168')
    expect(delta.textContent).toContain('= 7 days')
    expect(within(drawer).queryByTestId('critical-gaps')).toBeNull()
  })

  it('sends the critical limits and delta checks as edited', async () => {
    const { view, drawer } = await open(potassium())
    const critical = within(drawer).getByTestId('critical-bands')
    type(within(critical).getAllByLabelText('Critical high')[0], '7')
    fireEvent.click(within(drawer).getByRole('button', { name: 'Remove this delta check' }))
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add a delta check' }))
    const delta = within(drawer).getByTestId('delta-rules')
    type(within(delta).getByLabelText('Window, hours'), '48')
    type(within(delta).getByLabelText('Relative change'), '50')
    await waitFor(() => expect(delta.textContent).toContain('= 2 days'))
    save(drawer)
    await waitFor(() => expect(view.sent).toHaveLength(1))
    const body = view.sent[0].body as AnalyteEdit
    expect(body.critical).toEqual([
      { age_from_months: 0, age_to_months: 216, critical_low: 2.8, critical_high: 7, source: 'Kost GJ, Pediatrics 1991' },
      { age_from_months: 216, age_to_months: null, critical_low: 3, critical_high: 6, source: 'CAP surveys' },
    ])
    expect(body.delta_rules).toEqual([{ window_hours: 48, percent: 50, abs: null, source: '' }])
    expect(body.ranges).toEqual(potassium().ranges)
    expect(body).not.toHaveProperty('delta_percent')
  })

  it('warns of ages no critical band covers: a critical value there would alert no one', async () => {
    const { drawer } = await open({ ...potassium(), critical: [{ age_from_months: 216, age_to_months: null, critical_low: 3, critical_high: 6, source: 'CAP surveys' }] })
    expect(within(drawer).getByTestId('critical-gaps').textContent).toContain('No critical limits for the ages 0 months–18 years')
    fireEvent.click(within(drawer).getByRole('button', { name: 'Add critical limits' }))
    const critical = within(drawer).getByTestId('critical-bands')
    type(within(critical).getAllByLabelText('Until, months')[1], '216')
    await waitFor(() => expect(within(drawer).queryByTestId('critical-gaps')).toBeNull())
  })

  it('shows the server’s refusal under the critical limit or delta window it names', async () => {
    const refuse = () => {
      throw new ApiError(422, 'Invalid', 'validation', {
        'critical.1.critical_high': ['The low limit must be below the high limit.'],
        'delta_rules.0.window_hours': ['Enter the window in whole hours, from 1 to 87672 (ten years).'],
      })
    }
    const { drawer } = await open(potassium(), refuse)
    save(drawer)
    await screen.findByRole('alert')
    const critical = within(drawer).getByTestId('critical-bands')
    const second = within(critical).getAllByLabelText('Critical high')[1].closest('.ant-form-item') as HTMLElement
    // The form sets the fields' errors after the alert has rendered: wait for them.
    await waitFor(() => expect(second.textContent).toContain('The low limit must be below the high limit.'))
    const first = within(critical).getAllByLabelText('Critical high')[0].closest('.ant-form-item') as HTMLElement
    expect(first.textContent).not.toContain('must be below')
    const window = within(within(drawer).getByTestId('delta-rules')).getByLabelText('Window, hours').closest('.ant-form-item') as HTMLElement
    await waitFor(() => expect(window.textContent).toContain('from 1 to 87672'))
  })

  it('keeps a limit it cannot read from being sent (and erased) as empty', async () => {
    const { view, drawer } = await open(potassium())
    const critical = within(drawer).getByTestId('critical-bands')
    type(within(critical).getAllByLabelText('Critical low')[1], '3,0,0')
    save(drawer)
    await waitFor(() => expect(within(critical).getAllByLabelText('Critical low')[1].closest('.ant-form-item')?.textContent).toContain('Enter a number'))
    expect(view.sent).toEqual([])
  })
})
