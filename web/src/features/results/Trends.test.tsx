// @vitest-environment jsdom
// The chart's results on the light components: the orders, each opening to its results with
// their flags; the trends of a test chosen by a search, the period, and the table of values
// beside the chart, newest first, eight to a page.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { PatientResults } from './PatientResults'

// ECharts draws on a canvas jsdom has not: the chart stands here as its named figure.
vi.mock('../../components/LazyChart', () => ({ LazyChart: ({ label, testId }: { label: string; testId?: string }) => <div role="img" aria-label={label} data-testid={testId} /> }))

afterEach(cleanup)

const range = { low: '3.5', high: '5.1', note: '', source: 'catalogue' }
const result = (id: number, analyte: string, label: string, value: string, flag: string) => ({
  id,
  analyte,
  label,
  type: 'numeric',
  value,
  entered: value,
  unit: 'mmol/L',
  entered_unit: '',
  comparator: '',
  text: '',
  flag,
  delta: '',
  range,
  status: 'final',
  recorded_at: '2026-11-20T09:00:00Z',
  recorded_by_name: 'Nurse',
})
const order = (id: number, to_review: boolean, results: unknown[], test_label = 'Electrolytes') => ({
  id,
  test: 'ELEC',
  test_label,
  status: results.length ? 'final' : 'ordered',
  ordered_at: '2026-11-20T08:00:00Z',
  collected_at: null,
  to_review,
  overdue: false,
  results,
})
const orders = { data: [order(1, true, [result(11, 'K', 'Potassium', '6.8', 'HH')]), order(2, false, [], 'Chest X-ray')] }
const points = Array.from({ length: 10 }, (_, i) => ({ order_id: 1, observed_at: `2026-11-${String(i + 10).padStart(2, '0')}T09:00:00Z`, value: String(4 + i / 10), answer: '', flag: i === 9 ? 'H' : 'N', delta: '', range, status: 'final' }))
const trend = { analyte: { code: 'K', label: 'Potassium', unit: 'mmol/L', decimals: 1, units: [] }, band: { low: 3.5, high: 5.1 }, points }

const chart = () => renderScreen(<PatientResults patientId={3} />, { me: user(['review results']), api: { 'GET /patients/3/orders': orders, 'GET /patients/3/trend': trend } })

describe('PatientResults and Trends', () => {
  it('lists the orders with their state and flags; an order with results opens to them', async () => {
    const { container } = await chart()
    await screen.findByRole('link', { name: 'Electrolytes' })
    const table = screen.getByRole('table', { name: 'Laboratory and imaging results' })
    const card = screen.getByTestId('patient-results')
    expect(within(card).getByRole('heading', { name: 'Laboratory and imaging results' })).toBeTruthy()
    expect(card.textContent).toContain('1 result not yet reviewed')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    expect(within(rows[0]!).getByRole('link', { name: 'Electrolytes' }).getAttribute('href')).toBe('/results/orders/1')
    expect(rows[0]!.querySelector('[data-status="final"]')?.textContent).toBe('Final')
    expect(rows[0]!.querySelector('[data-flag="HH"]')?.textContent).toBe('Critical high')
    // The order without results has nothing to open.
    expect(within(rows[1]!).queryByRole('button')).toBeNull()
    const open = within(rows[0]!).getByRole('button', { name: 'Expand row' })
    fireEvent.click(open)
    expect(open.getAttribute('aria-expanded')).toBe('true')
    const results = screen.getByRole('table', { name: 'Results' })
    expect(within(results).getByRole('row', { name: /Potassium/ }).textContent).toContain('6.8')
    await screen.findByRole('table', { name: 'Values of Potassium' })
    expect(await axeViolations(container)).toEqual([])
  })

  it('charts the test chosen by its search, with the values newest first, eight to a page', async () => {
    await chart()
    const trends = await screen.findByTestId('trends')
    const box = within(trends).getByRole('combobox', { name: 'What to chart' }) as HTMLInputElement
    await waitFor(() => expect(box.value).toBe('Potassium'))
    // The search narrows the list; leaving it shows the choice again.
    fireEvent.input(box, { target: { value: 'xyz' } })
    expect(within(trends).queryByRole('option')).toBeNull()
    fireEvent.blur(box)
    expect(box.value).toBe('Potassium')
    expect(within(trends).getByRole('radiogroup', { name: 'Period' })).toBeTruthy()
    expect((within(trends).getByRole('radio', { name: '5 years' }) as HTMLInputElement).checked).toBe(true)
    const values = await within(trends).findByRole('table', { name: 'Values of Potassium' })
    const rows = within(values).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(8)
    expect(rows[0]!.textContent).toContain('4.9')
    expect(rows[0]!.querySelector('[data-flag="H"]')).toBeTruthy()
    expect(screen.getByTestId('trend-band').textContent).toContain('3.5')
    fireEvent.click(within(trends).getByRole('button', { name: 'Page 2' }))
    expect(within(values).getAllByRole('row').slice(1)).toHaveLength(2)
    fireEvent.click(within(trends).getByRole('radio', { name: '1 year' }))
    expect((within(trends).getByRole('radio', { name: '1 year' }) as HTMLInputElement).checked).toBe(true)
  })
})
