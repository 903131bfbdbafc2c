// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { LabOrder, LabResult } from './api/results'
import { RetractButton } from './RetractResult'

afterEach(cleanup)

// Issue 54: a result entered in error is retracted only with a reason, which the request
// carries with the order's version and the result (none for the whole report).
const potassium = { id: 31, analyte: 'K', label: 'Potassium', status: 'final' } as LabResult
const order = { id: 9, version: 4, results: [potassium] } as unknown as LabOrder

describe('RetractButton', () => {
  it.each([
    ['one result', potassium, 'Mark Potassium as entered in error', { version: 4, result_id: 31, reason: "another patient's sample" }],
    ['the whole report', undefined, 'Mark every result of this order as entered in error', { version: 4, reason: "another patient's sample" }],
  ])('asks why before retracting %s', async (_what, result, title, body) => {
    const screenView = await renderScreen(<RetractButton order={order} result={result} />, {
      me: user(['record results']),
      api: { 'POST /lab-orders/9/retract': { ...order, results: [] } },
    })
    fireEvent.click(screen.getByTestId(result ? 'retract-K' : 'retract-all'))
    expect((await screen.findAllByText(title)).length).toBeGreaterThan(0)
    // A wrong patient's sample: the value belongs on the right patient's order.
    expect(screen.getByText(/record the value on that patient's order as well/)).toBeTruthy()
    const ok = screen.getByRole('button', { name: 'Mark as entered in error' })
    // No reason, no retraction: the action stays disabled until one is typed.
    expect(ok.closest('button')!.disabled).toBe(true)
    fireEvent.change(screen.getByRole('textbox', { name: /Why was it entered in error/ }), { target: { value: "  another patient's sample " } })
    await waitFor(() => expect(ok.closest('button')!.disabled).toBe(false))
    fireEvent.click(ok)
    await waitFor(() => expect(screenView.sent).toEqual([{ method: 'POST', path: '/lab-orders/9/retract', body }]))
  })
})
