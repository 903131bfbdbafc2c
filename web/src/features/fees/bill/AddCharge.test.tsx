// @vitest-environment jsdom
// The cashier's reading of the light bill: a service already on the bill is charged again only
// on purpose, a quantity goes as a whole number in 1–999 whatever was typed, and Enter on the
// service search opens its list rather than adding the charge.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Refusal, renderScreen, user } from '../../../test/render'
import type { Bill } from '../api/types'
import { AddCharge } from './AddCharge'
import { useMoney } from './useMoney'

afterEach(cleanup)

const bill = { id: 5, version: 3, status: 'draft', balance: 0, currency: 'PHP', minor_units: 2, payments: [], lines: [] } as unknown as Bill
const services = { data: [{ id: 1, code: 'CONS', name: 'Consultation', price: 50000, active: true }] }

function Charge() {
  const money = useMoney('PHP', 2)
  return <AddCharge bill={bill} money={money} onDone={() => {}} />
}

const chooseService = async () => {
  const box = screen.getByRole('combobox', { name: 'Service' })
  fireEvent.click(box)
  fireEvent.click(await screen.findByRole('option', { name: /Consultation/ }))
  return box
}

describe('AddCharge', () => {
  it('asks before charging a service the bill has, and charges it again only on Charge again', async () => {
    let calls = 0
    const { sent } = await renderScreen(<Charge />, {
      me: user(['record charges']),
      api: {
        'GET /services': services,
        'POST /bills/5/lines': () => {
          calls++
          if (calls === 1) throw new Refusal(409, { error: 'Consultation is on this bill already.', code: 'billing.duplicate_service' })
          return bill
        },
      },
    })
    await screen.findByRole('combobox', { name: 'Service' })
    await chooseService()
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    const ask = await screen.findByRole('alertdialog')
    expect(ask.textContent).toContain('Consultation is on this bill already.')
    // Focus on Cancel: Enter does not charge it twice.
    // (its focus is set as the dialog's effect runs: waited for, not assumed at once)
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'))
    fireEvent.click(screen.getByRole('button', { name: 'Charge again' }))
    await waitFor(() => expect(sent.filter((r) => r.path === '/bills/5/lines')).toHaveLength(2))
    expect(sent[0].body).not.toHaveProperty('confirm_duplicate')
    expect(sent[1].body).toMatchObject({ service_id: 1, quantity: 1, confirm_duplicate: true })
  })

  it('sends a quantity typed past 999 or with a fraction as the whole number kept in 1–999', async () => {
    const { sent } = await renderScreen(<Charge />, { me: user(['record charges']), api: { 'GET /services': services, 'POST /bills/5/lines': bill } })
    await screen.findByRole('combobox', { name: 'Service' })
    await chooseService()
    fireEvent.input(screen.getByRole('spinbutton', { name: /Quantity/ }), { target: { value: '1000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Add' }))
    await waitFor(() => expect(sent).toContainEqual(expect.objectContaining({ path: '/bills/5/lines', body: expect.objectContaining({ quantity: 999 }) })))
  })

  it('opens the service list on Enter and sends nothing', async () => {
    const { sent } = await renderScreen(<Charge />, { me: user(['record charges']), api: { 'GET /services': services, 'POST /bills/5/lines': bill } })
    await screen.findByRole('combobox', { name: 'Service' })
    const box = await chooseService()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(sent).toHaveLength(0)
  })
})
