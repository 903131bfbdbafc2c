// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { AxiosError, AxiosHeaders } from 'axios'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { Drawer } from './api/drawers'
import { DrawerFigures, FloatModal } from './CashUpPage'
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
    await screen.findByText('Opening float')
    expect(screen.queryByText('Cash refunded')).toBeNull()
  })

  it('shows the cash refunded when there was some', async () => {
    await renderScreen(<Figures d={drawer({ cash_refunded: 70000, drawer_cash: 860000 })} />, { me: user(['cash up own drawer']), api: {} })
    expect(await screen.findByText('Cash refunded')).toBeTruthy()
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
      throw new AxiosError('refused', 'ERR_BAD_REQUEST', undefined, undefined, { status: 422, data: body, statusText: '', headers: {}, config: { headers: new AxiosHeaders() } })
    }
    await renderScreen(<Float />, { me: user(['record payment']), api: { 'PUT /drawers/float': refusal } })
    fireEvent.change(await screen.findByRole('textbox'), { target: { value: '90000' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText(frozen)).toBeTruthy()
  })
})
