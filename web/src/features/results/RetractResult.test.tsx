// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { LabOrder, LabResult } from './api/results'
import { reasonLongEnough, RetractButton } from './RetractResult'

afterEach(cleanup)

// Issue 54: a result entered in error is retracted only with a reason, which the request
// carries with the order's version and the result (none for the whole report). Issue 55 (M4,
// m5, M7): it carries a category too, a reason of a few characters is refused before sending,
// and the dialog says that the value raised a critical alert, who acknowledged it, and to phone
// the doctor.
const potassium = { id: 31, analyte: 'K', label: 'Potassium', status: 'final' } as LabResult
const alert = {
  id: 5,
  result: { analyte: 'K' },
  doctor_name: 'Dr Binh',
  raised_at: '2026-11-20T08:00:00Z',
  acknowledged_at: '2026-11-20T08:10:00Z',
  acknowledged_by_name: 'Dr Lead',
  action: 'Sent to ED',
  withdrawn_at: null,
}
const order = { id: 9, version: 4, results: [potassium], alerts: [alert] } as unknown as LabOrder

describe('RetractButton', () => {
  it.each([
    ['one result', potassium, 'Mark Potassium as entered in error', { version: 4, result_id: 31, category: 'wrong_patient', reason: "another patient's sample" }],
    ['the whole report', undefined, 'Mark every result of this order as entered in error', { version: 4, category: 'wrong_patient', reason: "another patient's sample" }],
  ])('asks why before retracting %s', async (_what, result, title, body) => {
    const screenView = await renderScreen(<RetractButton order={order} result={result} />, {
      me: user(['record results']),
      api: { 'POST /lab-orders/9/retract': { ...order, results: [] } },
    })
    fireEvent.click(screen.getByTestId(result ? 'retract-K' : 'retract-all'))
    expect((await screen.findAllByText(title)).length).toBeGreaterThan(0)
    // The value reached a doctor: who, whether acknowledged, and to phone.
    const said = screen.getByTestId('retract-alert').textContent
    expect(said).toContain('Phone the doctor now')
    expect(said).toContain('critical alert for Dr Binh')
    expect(said).toMatch(/Acknowledged by Dr Lead at .+: Sent to ED/)
    // A wrong patient's sample: the value belongs on the right patient's order.
    expect(screen.getByText(/record the value on that patient's order as well/)).toBeTruthy()
    const ok = screen.getByRole('button', { name: 'Mark as entered in error' })
    const reason = screen.getByRole('textbox', { name: /Why was it entered in error/ })
    fireEvent.change(reason, { target: { value: 'x' } })
    fireEvent.click(ok)
    expect(await screen.findByText('Choose why.')).toBeTruthy()
    expect(await screen.findByText('Describe it in at least 5 characters.')).toBeTruthy()
    expect(screenView.sent).toEqual([])
    fireEvent.click(screen.getByLabelText('Wrong patient'))
    fireEvent.change(reason, { target: { value: "  another patient's sample " } })
    fireEvent.click(ok)
    await waitFor(() => expect(screenView.sent).toEqual([{ method: 'POST', path: '/lab-orders/9/retract', body }]))
  })
})

// Issue 55 (minor): a reason in Chinese says as much in fewer characters: "溶血" (haemolysed) is enough.
describe('reasonLongEnough', () => {
  it('counts a minimum that fits ideographs', () => {
    expect(reasonLongEnough('溶血')).toBe(true)
    expect(reasonLongEnough('溶')).toBe(false)
    expect(reasonLongEnough('haem')).toBe(false)
    expect(reasonLongEnough(' haemolysed ')).toBe(true)
  })
})
