// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { LabOrder, LabResult } from './api/types'
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
    ['one result', potassium, 'Transcription error', 'Mark Potassium as entered in error', { version: 4, result_id: 31, category: 'transcription', reason: "another patient's sample" }],
    // C1 of the laboratory clinician's review: another patient's sample is the whole specimen.
    ['one result as another patient\'s', potassium, 'Wrong patient', 'Mark every result of this order as entered in error', { version: 4, category: 'wrong_patient', reason: "another patient's sample" }],
    ['the whole report', undefined, 'Wrong patient', 'Mark every result of this order as entered in error', { version: 4, category: 'wrong_patient', reason: "another patient's sample" }],
  ])('asks why before retracting %s', async (_what, result, category, title, body) => {
    const screenView = await renderScreen(<RetractButton order={order} result={result} />, {
      me: user(['record results']),
      api: { 'POST /lab-orders/9/retract': { ...order, results: [] } },
    })
    fireEvent.click(screen.getByTestId(result ? 'retract-K' : 'retract-all'))
    // The value reached a doctor: who, whether acknowledged, and to phone.
    const said = screen.getByTestId('retract-alert').textContent
    expect(said).toContain('Phone the doctor now')
    expect(said).toContain('critical alert for Dr Binh')
    expect(said).toMatch(/Acknowledged by Dr Lead at .+: Sent to ED/)
    // A wrong patient's sample waits on the misfiled list: marking it here does not move it.
    expect(screen.getByText(/wait on the misfiled results list/)).toBeTruthy()
    const ok = screen.getByRole('button', { name: 'Mark as entered in error' })
    const reason = screen.getByRole('textbox', { name: /Why was it entered in error/ })
    fireEvent.input(reason, { target: { value: 'x' } })
    fireEvent.click(ok)
    expect(await screen.findByText('Choose why.')).toBeTruthy()
    expect(await screen.findByText('Describe it in at least 5 characters.')).toBeTruthy()
    expect(screenView.sent).toEqual([])
    fireEvent.click(screen.getByLabelText(category))
    expect((await screen.findAllByText(title)).length).toBeGreaterThan(0)
    fireEvent.input(reason, { target: { value: "  another patient's sample " } })
    fireEvent.click(ok)
    await waitFor(() => expect(screenView.sent).toEqual([{ method: 'POST', path: '/lab-orders/9/retract', body }]))
  })

  it("offers the visit's other collected orders, those of the same draw ticked", async () => {
    const at = '2026-11-20T08:00:00Z'
    const drawn = {
      ...order,
      collected_at: at,
      same_draw: [
        { id: 10, version: 3, test_label: 'Creatinine', collected_at: '2026-11-20T08:02:00Z', results: [{ analyte: 'CREA', label: 'Creatinine' }] },
        { id: 11, version: 2, test_label: 'Lipid panel', collected_at: '2026-11-20T11:30:00Z', results: [{ analyte: 'CHOL', label: 'Cholesterol' }] },
      ],
    } as unknown as LabOrder
    const screenView = await renderScreen(<RetractButton order={drawn} />, {
      me: user(['record results']),
      api: { 'POST /lab-orders/9/retract': { ...drawn, results: [] } },
    })
    fireEvent.click(screen.getByTestId('retract-all'))
    expect(screen.queryByText(/Other orders of this visit/)).toBeNull()
    fireEvent.click(screen.getByLabelText('Wrong patient'))
    expect(await screen.findByText(/Other orders of this visit/)).toBeTruthy()
    expect(screen.getByTestId('retract-specimen').textContent).toContain('every result of this report')
    const crea = screen.getByRole('checkbox', { name: /Creatinine/ }) as HTMLInputElement
    const lipids = screen.getByRole('checkbox', { name: /Lipid panel/ }) as HTMLInputElement
    expect(crea.checked).toBe(true)
    expect(lipids.checked).toBe(false)
    fireEvent.input(screen.getByRole('textbox', { name: /Why was it entered in error/ }), { target: { value: 'label swapped at the desk' } })
    fireEvent.click(screen.getByRole('button', { name: 'Mark as entered in error' }))
    await waitFor(() =>
      expect(screenView.sent).toEqual([
        { method: 'POST', path: '/lab-orders/9/retract', body: { version: 4, category: 'wrong_patient', reason: 'label swapped at the desk', same_draw: [{ id: 10, version: 3 }] } },
      ]),
    )
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
