// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import type { Bill } from '../api/types'
import { PaymentModal } from './PaymentModal'
import { useMoney } from './useMoney'

afterEach(cleanup)

const bill = { id: 5, version: 3, status: 'final', balance: 50000, currency: 'PHP', minor_units: 2, payments: [], lines: [] } as unknown as Bill

function Modal() {
  const money = useMoney('PHP', 2)
  return <PaymentModal bill={bill} money={money} onClose={() => {}} onPaid={() => {}} />
}

// The clinic manager's run, 2026-11-29: the float of a drawer opened after a close was asked
// only once Receive had been refused, and the day's first drawer opened at 0 unasked.
describe('PaymentModal', () => {
  it('asks the float of a drawer opened after a close with the payment, at once', async () => {
    const { sent } = await renderScreen(<Modal />, {
      me: user(['record payment']),
      api: { 'GET /drawers/float': { ask: 'required' }, 'POST /bills/5/payments': { bill, payment: { id: 1 } } },
    })
    const field = await screen.findByLabelText(/Float your drawer starts with/)
    expect(screen.getByText(/Enter the float your drawer starts with/)).toBeTruthy()
    fireEvent.input(field, { target: { value: '200' } })
    fireEvent.click(screen.getByRole('button', { name: /receive/i }))
    await waitFor(() => expect(sent).toContainEqual(expect.objectContaining({ method: 'POST', path: '/bills/5/payments', body: expect.objectContaining({ method: 'cash', opening_float: 20000 }) })))
  })

  it('asks nothing of a drawer already counted', async () => {
    await renderScreen(<Modal />, { me: user(['record payment']), api: { 'GET /drawers/float': { ask: 'none' } } })
    await screen.findByText(/Balance/)
    await waitFor(() => expect(screen.queryByLabelText(/float/i)).toBeNull())
  })

  // The cashier's review of the light bill: a double click or Enter twice sends one payment, and
  // the dialog waits for it; amounts typed as the language writes them.
  it('sends one payment for a double click, and waits for it', async () => {
    let answer: (v: unknown) => void = () => {}
    const { sent } = await renderScreen(<Modal />, {
      me: user(['record payment']),
      api: { 'GET /drawers/float': { ask: 'none' }, 'POST /bills/5/payments': () => new Promise((r) => (answer = r)) },
    })
    await screen.findByText(/Balance/)
    const receive = screen.getByRole('button', { name: /receive/i })
    fireEvent.click(receive)
    fireEvent.click(receive)
    await waitFor(() => expect(sent.filter((r) => r.path === '/bills/5/payments')).toHaveLength(1))
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    expect(screen.getByRole('dialog')).toBeTruthy()
    answer({ bill, payment: { id: 1 } })
    expect(sent.filter((r) => r.path === '/bills/5/payments')).toHaveLength(1)
  })

  it('refuses an amount of nothing, and takes part of the balance as typed', async () => {
    const { sent } = await renderScreen(<Modal />, {
      me: user(['record payment']),
      api: { 'GET /drawers/float': { ask: 'none' }, 'POST /bills/5/payments': { bill, payment: { id: 1 } } },
    })
    const amount = await screen.findByLabelText(/^Amount/)
    fireEvent.input(amount, { target: { value: '0' } })
    fireEvent.click(screen.getByRole('button', { name: /receive/i }))
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'))
    expect(sent.filter((r) => r.path === '/bills/5/payments')).toHaveLength(0)
    fireEvent.input(amount, { target: { value: '120.50' } })
    fireEvent.click(screen.getByRole('button', { name: /receive/i }))
    await waitFor(() => expect(sent).toContainEqual(expect.objectContaining({ path: '/bills/5/payments', body: expect.objectContaining({ amount: 12050 }) })))
  })
})
