// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import OverduePage from './OverduePage'

afterEach(cleanup)

const order = (id: number, repeat: boolean, due: string, category = '') => ({
  id,
  version: 1,
  test: 'K',
  test_label: 'Potassium',
  status: repeat ? 'final' : 'ordered',
  repeat_needed: repeat,
  repeat_category: category,
  ordered_by_name: 'Dr Lan',
  ordered_at: '2026-11-01T08:00:00Z',
  due_at: due,
  patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '0901 234 567' },
  results: [],
})

// Issue 55: the overdue list says why each order is on it — no result yet, or a result withdrawn
// for a reason that calls for the test again — and an order to repeat that is not yet past its
// turnaround is not "overdue by 0 days".
describe('OverduePage', () => {
  it('says why each order is listed', async () => {
    const view = await renderScreen(<OverduePage />, {
      me: user(['view results']),
      api: { 'GET /lab-orders/overdue': { data: [order(1, false, '2026-11-02T08:00:00Z'), order(2, true, '2999-01-01T08:00:00Z')] }, 'GET /results/misfiled': { data: [], meta: { total: 0, page: 1, per_page: 15 } } },
    })
    const tag = await screen.findByText('Test to repeat: a result was withdrawn')
    const repeat = tag.closest('tr')!
    const late = screen.getByText('No result yet').closest('tr')!
    expect(repeat.getAttribute('data-row-key')).toBe('2')
    expect(late.getAttribute('data-row-key')).toBe('1')
    expect(within(late).getByText(/days/)).toBeTruthy()
    expect(within(repeat).getByText('–')).toBeTruthy()
    expect(view.unanswered).toEqual([])
  })

  // M6 of the laboratory clinician's review (2026-11-29): a report withdrawn whole as a specimen problem or another
  // patient's sample is not "no result yet": the patient is recalled for a new sample.
  it.each([
    ['wrong_patient', 'Result withdrawn (Wrong patient): new sample needed'],
    ['specimen', 'Result withdrawn (Specimen problem (haemolysed, clotted, contaminated)): new sample needed'],
    ['transcription', 'Test to repeat: a result was withdrawn'],
  ])('says why a %s withdrawal is listed', async (category, said) => {
    await renderScreen(<OverduePage />, {
      me: user(['view results']),
      api: { 'GET /lab-orders/overdue': { data: [{ ...order(3, true, '2026-11-02T08:00:00Z', category), status: 'ordered' }] }, 'GET /results/misfiled': { data: [], meta: { total: 0, page: 1, per_page: 15 } } },
    })
    expect(await screen.findByText(said)).toBeTruthy()
    expect(screen.queryByText('No result yet')).toBeNull()
  })
})
