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
    fireEvent.input(screen.getByLabelText('Note (optional)'), { target: { value: ' Repeat K tomorrow ' } })
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

  // M4 of the laboratory clinician's review (2026-11-29): a critical value acknowledged, then corrected to one not
  // critical, comes back withdrawn: the row still shows old → new and the reason. m5: every retraction reason shows.
  it.each([
    ['a correction', { correction: { reason: 'typo: 4.2', replaced: [{ id: 1, analyte: 'K', label: 'Potassium', type: 'numeric', value: '7.2', unit: 'mmol/L', entered: '7.2', entered_unit: 'mmol/L', comparator: '' }] } }, [/Potassium: 7\.2.*→ 4\.2/, /Reason: typo: 4\.2/]],
    [
      'two retractions',
      {
        retracted: [
          { id: 5, analyte: 'NA', label: 'Sodium', type: 'numeric', value: '128', unit: 'mmol/L', entered: '128', comparator: '', retract_reason: 'haemolysed' },
          { id: 6, analyte: 'GLU', label: 'Glucose', type: 'numeric', value: '2.5', unit: 'mmol/L', entered: '2.5', comparator: '', retract_reason: 'typed on the wrong order' },
        ],
      },
      [/haemolysed/, /typed on the wrong order/],
    ],
  ])('shows what changed in a withdrawal with %s', async (_what, extra, said) => {
    const k = { id: 2, analyte: 'K', label: 'Potassium', type: 'numeric', value: '4.2', unit: 'mmol/L', entered: '4.2', entered_unit: 'mmol/L', comparator: '' }
    const withdrawn = { ...order(10, 0, true), status: 'corrected', results: [k], ...extra }
    await renderScreen(<ReviewPage />, { me: user(['review results']), api: { 'GET /results/review': { data: [withdrawn] } } })
    const row = await screen.findByTestId('withdrawn-10')
    expect(row.textContent).toContain('Result withdrawn')
    for (const s of said) expect(row.textContent).toMatch(s)
  })

  // ADR 45 (the review of what the doctor is told, 2026-11-29): under the rule that releases a
  // result once reviewed, an abnormal one says the patient will see it, and offers to hold it
  // first: the hold goes before the review, so the rule never releases it in between.
  it('warns that an abnormal result reaches the portal once reviewed, and reviews it held', async () => {
    const view = await renderScreen(<ReviewPage />, {
      me: user(['review results']),
      api: {
        'GET /results/review': { data: [order(11, 1, false), order(12, 0, false)] },
        'GET /release/holds-due': { data: [], releases_on_review: true },
        'POST /release/results/11': { id: 11 },
        'POST /results/review': { reviewed: 1 },
      },
    })
    const warning = await screen.findByTestId('portal-warning-11')
    expect(warning.textContent).toContain('Once reviewed, the patient sees this result in the portal. Hold it if you want to tell them first.')
    expect(screen.queryByTestId('portal-warning-12')).toBeNull()
    // A batch with an abnormal result in it says so beside the button.
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[]
    fireEvent.click(boxes.find((b) => b.getAttribute('aria-label')?.includes('Basic metabolic panel')) ?? boxes[1])
    expect((await screen.findByTestId('portal-warning-batch')).textContent).toContain('once reviewed, the patient sees them in the portal')
    fireEvent.click(screen.getByTestId('review-hold-11'))
    await waitFor(() =>
      expect(view.sent).toEqual([
        {
          method: 'POST',
          path: '/release/results/11',
          body: { action: 'hold', version: 0, hold_kind: 'discuss', category: 'in_person', reason: 'Abnormal result: to discuss with the patient before they see it in the portal.' },
        },
        { method: 'POST', path: '/results/review', body: { orders: [{ id: 11, version: 3 }], comment: '' } },
      ]),
    )
  })

  it('says nothing of the portal when the rule releases results only by hand', async () => {
    await renderScreen(<ReviewPage />, {
      me: user(['review results']),
      api: { 'GET /results/review': { data: [order(11, 2, false)] }, 'GET /release/holds-due': { data: [], releases_on_review: false } },
    })
    await screen.findByText('Basic metabolic panel')
    await waitFor(() => expect(screen.queryByTestId('portal-warning-11')).toBeNull())
  })

  it('lists the holds due for review, each linking to the chart', async () => {
    const hold = {
      kind: 'result',
      id: 21,
      title: 'Lipid panel',
      patient: { id: 5, mrn: 'MRN-5', first_name: 'Bình', last_name: 'Tran', phone: '' },
      hold_kind: 'discuss',
      category: 'in_person',
      review_by: '2026-11-20',
      held_at: '2026-10-21T09:00:00Z',
      held_by_name: 'Dr Lan',
    }
    await renderScreen(<ReviewPage />, {
      me: user(['review results']),
      api: { 'GET /results/review': { data: [] }, 'GET /release/holds-due': { data: [hold], releases_on_review: true } },
    })
    const list = await screen.findByTestId('holds-due')
    expect(list.textContent).toContain('1 hold due for review')
    expect(list.textContent).toContain('Lipid panel')
    expect(list.textContent).toContain('held by Dr Lan')
    expect(list.querySelector('a')?.getAttribute('href')).toBe('/masterfile/profile/5/MRN-5')
  })
})
