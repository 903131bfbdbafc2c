// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import ReviewPage from './ReviewPage'

afterEach(cleanup)

const order = (id: number, attention: number, withdrawn: boolean) => ({
  id,
  version: 3,
  test: 'BMP',
  test_label: 'Basic metabolic panel',
  status: withdrawn ? 'preliminary' : 'final',
  attention,
  to_review: true,
  withdrawn_to_review: withdrawn,
  resulted_at: '2026-11-20T08:00:00Z',
  patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '' },
  results: [],
})

// Issue 54: an order a result of which was withdrawn says so in the queue (the server puts it
// first) and is reviewed on its own, never in a batch. Issue 55 (M2): the review asks what was
// done about the value withdrawn, and sends nothing until one is chosen.
describe('ReviewPage', () => {
  it('marks a withdrawal and reviews it on its own, with what was done about it', async () => {
    const view = await renderScreen(<ReviewPage />, {
      me: user(['review results']),
      api: { 'GET /results/review': { data: [order(7, 0, true), order(8, 2, false)] }, 'POST /results/review': { reviewed: 1 } },
    })
    const marker = await screen.findByTestId('withdrawn-7')
    expect(marker.textContent).toContain('Result withdrawn')
    expect(marker.textContent).toContain('check the value that now stands and review any treatment given for the withdrawn value')
    expect(screen.queryByTestId('withdrawn-8')).toBeNull()
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[]
    const withdrawnBox = boxes.find((b) => b.getAttribute('aria-label')?.startsWith('A result of this order was withdrawn'))
    expect(withdrawnBox?.disabled).toBe(true)
    fireEvent.click(screen.getByTestId('review-one-7'))
    fireEvent.click(await screen.findByTestId('followup-save'))
    expect(await screen.findByText('Choose what was done.')).toBeTruthy()
    expect(view.sent).toEqual([])
    fireEvent.click(screen.getByLabelText('Repeat test ordered'))
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: ' Repeat K tomorrow ' } })
    fireEvent.click(screen.getByTestId('followup-save'))
    await waitFor(() =>
      expect(view.sent).toEqual([
        { method: 'POST', path: '/results/review', body: { orders: [{ id: 7, version: 3 }], comment: 'Repeat K tomorrow', followup: 'repeat_ordered' } },
      ]),
    )
  })

  it('shows a corrected value beside what it replaced, with the reason', async () => {
    const k = (id: number, value: string) => ({ id, analyte: 'K', label: 'Potassium', type: 'numeric', value, unit: 'mmol/L', entered: value, entered_unit: 'mmol/L', comparator: '' })
    const corrected = { ...order(9, 2, false), status: 'corrected', corrections: 1, results: [k(2, '4.2')], correction: { reason: 'typo: 4.2', replaced: [k(1, '7.2')] } }
    await renderScreen(<ReviewPage />, { me: user(['review results']), api: { 'GET /results/review': { data: [corrected] } } })
    const row = await screen.findByTestId('corrected-9')
    expect(row.textContent).toContain('Corrected after it was reported')
    expect(row.textContent).toMatch(/Potassium: 7\.2.*→ 4\.2/)
    expect(row.textContent).toContain('Reason: typo: 4.2')
    expect(row.querySelector('del')?.textContent).toMatch(/7\.2/)
  })
})
