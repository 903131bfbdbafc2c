// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Refusal, renderScreen, user } from '../../test/render'
import type { Drawer } from './api/drawers'
import { CloseModal, DrawerFigures, FloatModal } from './CashUpPage'
import { useMoney } from './bill/useMoney'

afterEach(cleanup)

const drawer = (over: Partial<Drawer> = {}) =>
  ({
    shift_id: 1, cashier_id: 2, cashier: 'Front', currency: 'VND', minor_units: 0, opened_at: '2026-11-28T08:00:00Z', closed_at: null, closed_by: '',
    opening_float: 500000, cash_received: 430000, cash_refunded: 0, drawer_cash: 930000, counted: null, difference: null, note: '', other: [], version: 1,
    ...over,
  }) as Drawer

function Figures({ d }: { d: Drawer }) {
  return <DrawerFigures drawer={d} money={useMoney('VND', 0)} />
}

describe('DrawerFigures', () => {
  it('shows no "cash refunded" line on a drawer that gave no cash back (issue 55, m18)', async () => {
    await renderScreen(<Figures d={drawer()} />, { me: user(['cash up own drawer']), api: {} })
    await screen.findByText('Float')
    expect(screen.queryByText('Cash out (refunds)')).toBeNull()
  })

  it('shows the cash refunded when there was some', async () => {
    await renderScreen(<Figures d={drawer({ cash_refunded: 70000, drawer_cash: 860000 })} />, { me: user(['cash up own drawer']), api: {} })
    expect(await screen.findByText('Cash out (refunds)')).toBeTruthy()
  })

  it("hides a cashier's own open drawer's cash figures until she counts it (blind close, M7)", async () => {
    // As the server sends it to her (Drawer.Blind): the cash figures withheld.
    function Blind() {
      return <DrawerFigures drawer={drawer({ drawer_cash: null, cash_received: null, cash_refunded: null } as unknown as Partial<Drawer>)} money={useMoney('VND', 0)} />
    }
    await renderScreen(<Blind />, { me: user(['cash up own drawer']), api: {} })
    expect(await screen.findByText(/Counted blind/)).toBeTruthy()
    expect(document.body.textContent).not.toMatch(/930[.,\s]?000/)
    expect(screen.queryByText('Cash in')).toBeNull()
  })

  it('shows a first count that differs and who acknowledged the difference', async () => {
    await renderScreen(<Figures d={drawer({ closed_at: '2026-11-28T17:00:00Z', counted: 920000, difference: -10000, first_count: 900000, acknowledged_by: 'Head cashier' } as Partial<Drawer>)} />, {
      me: user(['view financial reports']),
      api: {},
    })
    expect(await screen.findByText('First count (before the expected amount was shown)')).toBeTruthy()
    expect(screen.getByText('Head cashier')).toBeTruthy()
  })
})

function Close({ d = drawer() }: { d?: Drawer }) {
  return <CloseModal drawer={d} money={useMoney('VND', 0)} onClose={vi.fn()} onDone={vi.fn()} />
}

describe('CloseModal (blind close, M7)', () => {
  const fees = (limit: number) => ({ currency: 'VND', minor_units: 0, consultation: {}, currencies: ['VND'], version: 1, drawer_difference_limit: limit })

  it('asks the count before it shows what the drawer should hold; a cashier is sent to a supervisor over the limit', async () => {
    const { sent } = await renderScreen(<Close />, {
      me: user(['cash up own drawer', 'record payment']),
      api: { 'GET /fees/settings': fees(5000), 'POST /drawers/1/count': drawer({ first_count: 920000, version: 2 } as Partial<Drawer>) },
    })
    const dialog = await screen.findByRole('dialog')
    await within(dialog).findByText(/Count the cash in the drawer/)
    expect(dialog.textContent).not.toMatch(/930/)
    fireEvent.input(within(dialog).getAllByRole('textbox')[0], { target: { value: '920000' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record count' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/drawers/1/count', body: { counted: 920000, note: '', version: 1 } }))
    expect((await within(dialog).findByTestId('close-expected')).textContent).toMatch(/930/)
    expect(within(dialog).getByTestId('drawer-difference').textContent).toMatch(/short/)
    expect(within(dialog).getByText(/a supervisor must acknowledge it/)).toBeTruthy()
    expect((await within(dialog).findByRole('button', { name: /Close drawer/ })).hasAttribute('disabled')).toBe(true)
    expect(within(dialog).queryByLabelText('Note')).toBeNull()
  })

  it("lets a supervisor close a difference over the limit once she acknowledges it, at the count's version", async () => {
    const { sent } = await renderScreen(<Close />, {
      me: user(['view financial reports', 'void bill']),
      api: {
        'GET /fees/settings': fees(0),
        'POST /drawers/1/count': drawer({ first_count: 900000, version: 2 } as Partial<Drawer>),
        'POST /drawers/1/close': drawer({ version: 3, closed_at: '2026-11-28T17:00:00Z', counted: 920000 }),
      },
    })
    const dialog = await screen.findByRole('dialog')
    fireEvent.input((await within(dialog).findAllByRole('textbox'))[0], { target: { value: '920000' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record count' }))
    // The cashier's first count, given blind before, shows beside the supervisor's recount.
    expect(await within(dialog).findByText('First count (before the expected amount was shown)')).toBeTruthy()
    fireEvent.input(within(dialog).getByLabelText('Note'), { target: { value: 'a 10,000 note missing' } })
    fireEvent.click(await within(dialog).findByRole('button', { name: /Close drawer/ }))
    expect(await within(dialog).findByText('Tick to acknowledge the difference, or cancel.')).toBeTruthy()
    expect(sent.some((r) => r.path === '/drawers/1/close')).toBe(false)
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'As supervisor, I acknowledge this difference' }))
    fireEvent.click(within(dialog).getByRole('button', { name: /Close drawer/ }))
    await waitFor(() =>
      expect(sent).toContainEqual({ method: 'POST', path: '/drawers/1/close', body: { counted: 920000, note: 'a 10,000 note missing', acknowledge: true, version: 2 } }),
    )
  })
})

function Float() {
  return <FloatModal money={useMoney('VND', 0)} onClose={vi.fn()} onDone={vi.fn()} />
}

describe('FloatModal', () => {
  it("shows the server's refusal of a float once cash has moved under the field (issue 55, m18)", async () => {
    const frozen = 'Cash has already moved in this drawer, so its float can no longer change.'
    const refusal = () => {
      const body = { error: 'Some fields need your attention.', code: 'validation.failed', errors: { opening_float: [frozen] } }
      throw new Refusal(422, body)
    }
    await renderScreen(<Float />, { me: user(['record payment']), api: { 'PUT /drawers/float': refusal } })
    fireEvent.input(await screen.findByRole('textbox'), { target: { value: '90000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(frozen)).toBeTruthy()
  })
})
