// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { MisfiledCard } from './MisfiledCard'

afterEach(cleanup)

const item = {
  result_id: 41,
  order_id: 7,
  test_label: 'Creatinine',
  result: { id: 41, analyte: 'CREA', label: 'Creatinine', type: 'numeric', value: '88', unit: 'umol/L', entered: '88', entered_unit: 'umol/L', comparator: '' },
  reason: "label swapped with the next patient's tube",
  retracted_at: '2026-11-29T08:00:00Z',
  retracted_by: 'Nurse Hoa',
  patient: { id: 4, mrn: '2026-000004', first_name: 'An', last_name: 'Nguyen', phone: '' },
}

// M6 of the clinician's review of withdrawals: a result recorded against the wrong patient
// waits on the results desk's list until someone says how it was resolved.
describe('MisfiledCard', () => {
  it('lists a wrong-patient result and resolves it with a note', async () => {
    const { sent } = await renderScreen(<MisfiledCard />, {
      me: user(['record results']),
      api: { 'GET /results/misfiled': { data: [item] }, 'POST /lab-results/41/misfiled/resolve': null },
    })
    const card = await screen.findByTestId('misfiled')
    expect(card.textContent).toContain('Creatinine: 88')
    expect(card.textContent).toContain('An Nguyen')
    fireEvent.click(screen.getByTestId('misfiled-resolve-41'))
    fireEvent.change(await screen.findByLabelText('How it was resolved'), { target: { value: 'recorded on Lan Trần’s order' } })
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/lab-results/41/misfiled/resolve', body: { note: 'recorded on Lan Trần’s order' } }))
  })

  it('shows nothing when none waits, and no resolving to one who only reads', async () => {
    await renderScreen(<MisfiledCard />, { me: user(['review results']), api: { 'GET /results/misfiled': { data: [item] } } })
    await screen.findByTestId('misfiled')
    expect(screen.queryByTestId('misfiled-resolve-41')).toBeNull()
  })
})
