// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Refusal, renderScreen, user } from '../../../test/render'
import type { Bill } from '../api/types'
import { BillById } from './BillPanel'

afterEach(cleanup)

const line = { added_at: '2026-11-26T09:00:00Z', added_by: 'Dr Lan', category: 'consultation', code: 'CONS', discount_kind: '', discount_reason: '', discount_value: 0, service_id: 1, by_order: false }

/** A bill as the server answers it: 500.00 consultation and 350.50 dressing, 20 % off for a senior. */
function bill(over: Partial<Bill> = {}): Bill {
  return {
    id: 5, appointment_id: null, number: 'BL-2026-000001', status: 'final', preview: false, version: 3,
    patient: { id: 9, mrn: '2026-000009', name: 'Lan Trần' }, doctor: 'Dr Lan', doctor_id: 2, doctor_details: null,
    currency: 'PHP', minor_units: 2, notes: '', created_at: '2026-11-26T08:00:00Z',
    lines: [
      { ...line, id: 1, description: 'Consultation', quantity: 1, unit_price: 50000, discount: 0, amount: 50000 },
      { ...line, id: 2, code: 'PROC', description: 'Wound dressing', quantity: 1, unit_price: 35050, discount: 0, amount: 35050 },
    ],
    subtotal: 85050, discount: 17010, discount_kind: 'percent', discount_value: 2000, discount_reason: 'senior citizen', total: 68040,
    paid: 30000, credited: 0, balance: 38040, payments: [],
    finalised_at: '2026-11-26T09:10:00Z', finalised_by: 'Front', replaced_by_id: null, replaces_id: null, void_reason: '', voided_at: null, voided_by: '',
    ...over,
  } as Bill
}

const settings = { currency: 'PHP', minor_units: 2 }

/** Picks the option named name in a native select, as the user's choice in its list does. */
function pick(select: HTMLElement, name: string) {
  const option = within(select).getByRole<HTMLOptionElement>('option', { name })
  fireEvent.change(select, { target: { value: option.value } })
}

describe('BillPanel (a bill by its id)', () => {
  it('shows the lines and sums a final bill adds up to, and offers a payment to a cashier', async () => {
    await renderScreen(<BillById id={5} />, { me: user(['record payment']), api: { 'GET /bills/5': bill(), 'GET /fees/settings': settings } })
    const card = await screen.findByTestId('bill')
    expect(within(card).getByText('Consultation')).toBeTruthy()
    expect(within(card).getByText('Wound dressing')).toBeTruthy()
    expect(screen.getByTestId('bill-total').textContent).toContain('680.40')
    expect(screen.getByTestId('bill-balance').textContent).toContain('380.40')
    expect(screen.getByRole('button', { name: /take payment/i })).toBeTruthy()
  })

  it('offers no payment to one who may only charge, and no line actions on a final bill', async () => {
    await renderScreen(<BillById id={5} />, { me: user(['record charges']), api: { 'GET /bills/5': bill(), 'GET /fees/settings': settings } })
    await screen.findByTestId('bill')
    expect(screen.queryByRole('button', { name: /take payment/i })).toBeNull()
    expect(screen.queryByRole('button', { name: /remove wound dressing/i })).toBeNull()
  })

  it('lets one who charges remove a draft line, sending the version read', async () => {
    const draft = bill({ status: 'draft', number: '', balance: 0, paid: 0, finalised_at: null })
    const view = await renderScreen(<BillById id={5} />, {
      me: user(['record charges']),
      api: { 'GET /bills/5': draft, 'GET /fees/settings': settings, 'GET /services': { data: [] }, 'DELETE /bills/5/lines/2?version=3': { ...draft, lines: draft.lines.slice(0, 1), version: 4 } },
    })
    fireEvent.click(await screen.findByRole('button', { name: /remove wound dressing/i }))
    fireEvent.click(await screen.findByRole('button', { name: /^remove$/i }))
    await waitFor(() => expect(view.sent).toContainEqual({ method: 'DELETE', path: '/bills/5/lines/2?version=3', body: undefined }))
  })

  it('says a void bill was withdrawn and why, and asks nothing of it', async () => {
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment', 'void bill']),
      api: { 'GET /bills/5': bill({ status: 'void', balance: 0, void_reason: 'charged twice', voided_by: 'Admin' }), 'GET /fees/settings': settings },
    })
    await screen.findByTestId('bill')
    expect(screen.getByText(/charged twice/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: /take payment/i })).toBeNull()
  })
})

describe('BillPanel (a visit bill beside its ordered tests)', () => {
  const orders = {
    ordered: 3,
    charged: 1,
    orders: [
      { order_id: 1, test: 'BMP', label: 'Basic metabolic panel', status: 'ordered', line_id: 2, linked: true, withdrawn: false },
      { order_id: 2, test: 'HBSAG', label: 'Hepatitis B surface antigen', status: 'ordered', line_id: null, linked: false, withdrawn: false },
      { order_id: 3, test: 'CRP', label: 'C-reactive protein', status: 'ordered', line_id: null, linked: true, withdrawn: false },
      { order_id: 4, test: 'CBC', label: 'Complete blood count', status: 'cancelled', line_id: 1, linked: true, withdrawn: true },
    ],
  }

  it('says how many tests are ordered and charged, and warns of each it should act on', async () => {
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment']),
      api: { 'GET /bills/5': bill({ appointment_id: 7 }), 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': orders },
    })
    const panel = await screen.findByTestId('order-charges')
    expect(panel.textContent).toContain('Ordered tests: 3, charged: 1')
    expect(within(panel).getByText(/no price-list service is linked.*Hepatitis B surface antigen/)).toBeTruthy()
    expect(within(panel).getByText(/Ordered after the bill was finalised.*C-reactive protein/)).toBeTruthy()
    expect(within(panel).getByText(/Cancelled order still charged: Complete blood count\. Refund\?/)).toBeTruthy()
  })

  it('charges an order not charged on a draft bill from the warning, as one unit of its service (issue 55, major 1)', async () => {
    const draft = bill({ appointment_id: 7, status: 'draft', number: '', paid: 0, balance: 68040, finalised_at: null, finalised_by: '' })
    const notCharged = { ...orders, orders: orders.orders.map((o) => (o.order_id === 3 ? { ...o, service_id: 12 } : o)) }
    const { sent } = await renderScreen(<BillById id={5} />, {
      me: user(['record payment', 'record charges']),
      api: { 'GET /bills/5': draft, 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': notCharged, 'POST /appointments/7/bill/lines': draft },
    })
    const panel = await screen.findByTestId('order-charges')
    expect(within(panel).getByText(/Ordered but not charged: C-reactive protein/)).toBeTruthy()
    fireEvent.click(within(panel).getByRole('button', { name: 'Charge C-reactive protein' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/appointments/7/bill/lines', body: { service_id: 12, quantity: 1 } }))
  })

  it('tells the desk which ordered tests a panel ordered with them includes (issue 55, major 4)', async () => {
    const panel = { ordered: 3, charged: 3, orders: [
      { order_id: 1, test: 'CMP', label: 'Comprehensive metabolic panel', status: 'ordered', line_id: 1, linked: true, withdrawn: false, included_in: '' },
      { order_id: 2, test: 'BMP', label: 'Basic metabolic panel', status: 'ordered', line_id: 2, linked: true, withdrawn: false, included_in: 'Comprehensive metabolic panel' },
      { order_id: 3, test: 'ELEC', label: 'Electrolytes', status: 'ordered', line_id: 3, linked: true, withdrawn: false, included_in: 'Comprehensive metabolic panel' },
    ] }
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment']),
      api: { 'GET /bills/5': bill({ appointment_id: 7 }), 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': panel },
    })
    const charges = await screen.findByTestId('order-charges')
    expect(within(charges).queryByText(/price 0/)).toBeNull()
    expect(within(charges).getByText('Comprehensive metabolic panel includes Basic metabolic panel, Electrolytes: charge those apart only if they were done apart.')).toBeTruthy()
  })

  it('says a test charged at price 0 is not charged (issue 55, m9)', async () => {
    const free = { ordered: 1, charged: 0, orders: [{ order_id: 1, test: 'CBC', label: 'Complete blood count', status: 'ordered', line_id: 1, linked: true, withdrawn: false, included_in: '', zero_price: true }] }
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment']),
      api: { 'GET /bills/5': bill({ appointment_id: 7 }), 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': free },
    })
    const charges = await screen.findByTestId('order-charges')
    expect(charges.textContent).toContain('Ordered tests: 1, charged: 0')
    expect(within(charges).getByText(/Charged at price 0, so not charged: Complete blood count\./)).toBeTruthy()
  })

  it('marks a test charged by hand as the charge of a line the desk wrote, on a final bill (the clinic manager’s run, 2026-11-29)', async () => {
    const handLine = { ...line, id: 3, service_id: null, code: '', category: 'laboratory', description: 'C-reactive protein (CRP)', quantity: 1, unit_price: 7000, discount: 0, amount: 7000, lab_order_id: null }
    const paid = bill({ appointment_id: 7, lines: [...bill().lines, handLine] })
    const notLinked = { ordered: 1, charged: 0, orders: [{ order_id: 9, test: 'CRP', label: 'C-reactive protein', status: 'ordered', line_id: null, linked: false, withdrawn: false, list_price: 8000 }] }
    const { sent } = await renderScreen(<BillById id={5} />, {
      me: user(['record payment', 'record charges']),
      api: { 'GET /bills/5': paid, 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': notLinked, 'POST /bills/5/lines/3/order': paid },
    })
    const mark = await screen.findByTestId('mark-charged')
    pick(within(mark).getByRole('combobox', { name: 'Line of this bill that charges C-reactive protein' }), 'C-reactive protein (CRP)')
    // Choosing a line asks nothing yet (an arrow key in a closed select changes it): Mark does.
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(within(mark).getByRole('button', { name: 'Mark as its charge: C-reactive protein' }))
    // Confirmed first, seeing the line, its amount and the test's list price (the cashier's review, M3).
    const confirm = await screen.findByRole('dialog')
    expect(within(confirm).getByText('Mark this line as the charge of C-reactive protein?')).toBeTruthy()
    expect(within(confirm).getByTestId('mark-amount').textContent).toContain('70.00')
    expect(within(confirm).getByTestId('mark-list-price').textContent).toContain('80.00')
    expect(within(confirm).getByText(/differs from the test's list price/)).toBeTruthy()
    expect(sent.some((r) => r.path === '/bills/5/lines/3/order')).toBe(false)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Mark as its charge' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/bills/5/lines/3/order', body: { order_id: 9, version: paid.version } }))
  })

  it('does not flag a line at the list price with its own discount (the review of the blind count, 6)', async () => {
    const handLine = { ...line, id: 3, service_id: null, code: '', category: 'laboratory', description: 'C-reactive protein (CRP)', quantity: 1, unit_price: 8000, discount: 1000, amount: 7000, lab_order_id: null }
    const paid = bill({ appointment_id: 7, lines: [...bill().lines, handLine] })
    const notLinked = { ordered: 1, charged: 0, orders: [{ order_id: 9, test: 'CRP', label: 'C-reactive protein', status: 'ordered', line_id: null, linked: false, withdrawn: false, list_price: 8000 }] }
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment', 'record charges']),
      api: { 'GET /bills/5': paid, 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': notLinked },
    })
    const mark = await screen.findByTestId('mark-charged')
    pick(within(mark).getByRole('combobox', { name: 'Line of this bill that charges C-reactive protein' }), 'C-reactive protein (CRP)')
    fireEvent.click(within(mark).getByRole('button', { name: 'Mark as its charge: C-reactive protein' }))
    const confirm = await screen.findByRole('dialog')
    expect(within(confirm).getByTestId('mark-list-price').textContent).toContain('80.00')
    expect(within(confirm).queryByText(/differs from the test's list price/)).toBeNull()
  })

  it('lets a supervisor unmark a line marked by hand, with a reason and the bill version (M3)', async () => {
    const marked = { ...line, id: 3, service_id: null, code: '', category: 'laboratory', description: 'C-reactive protein (CRP)', quantity: 1, unit_price: 7000, discount: 0, amount: 7000, lab_order_id: 9, by_order: false }
    const own = { ...line, id: 4, code: 'LAB-CBC', category: 'laboratory', description: 'Complete blood count', quantity: 1, unit_price: 9000, discount: 0, amount: 9000, lab_order_id: 10, by_order: true }
    const b = bill({ lines: [...bill().lines, marked, own] })
    const { sent } = await renderScreen(<BillById id={5} />, {
      me: user(['void bill']),
      api: { 'GET /bills/5': b, 'GET /fees/settings': settings, 'POST /bills/5/lines/3/unmark': { ...b, version: 4 } },
    })
    await screen.findByTestId('bill')
    // The order's own line is not a mark: no Unmark on it.
    expect(screen.queryByRole('button', { name: 'Unmark Complete blood count as a test\'s charge' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: "Unmark C-reactive protein (CRP) as a test's charge" }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'picked the wrong line' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unmark' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/bills/5/lines/3/unmark', body: { reason: 'picked the wrong line', version: 3 } }))
  })

  it('reads the bill again and says so when it changed before an unmark (409)', async () => {
    const marked = { ...line, id: 3, service_id: null, code: '', category: 'laboratory', description: 'C-reactive protein (CRP)', quantity: 1, unit_price: 7000, discount: 0, amount: 7000, lab_order_id: 9, by_order: false }
    const b = bill({ lines: [...bill().lines, marked] })
    let reads = 0
    const stale = () => {
      const body = { error: 'Someone else changed this.', code: 'error.conflict' }
      throw new Refusal(409, body)
    }
    await renderScreen(<BillById id={5} />, {
      me: user(['void bill']),
      api: { 'GET /bills/5': () => (reads++, b), 'GET /fees/settings': settings, 'POST /bills/5/lines/3/unmark': stale },
    })
    fireEvent.click(await screen.findByRole('button', { name: "Unmark C-reactive protein (CRP) as a test's charge" }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'wrong line' } })
    const before = reads
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unmark' }))
    expect(await screen.findByText(/The bill was changed by someone else: it has been reloaded/)).toBeTruthy()
    await waitFor(() => expect(reads).toBeGreaterThan(before))
  })

  it('offers no marking to one who may not charge', async () => {
    const notLinked = { ordered: 1, charged: 0, orders: [{ order_id: 9, test: 'CRP', label: 'C-reactive protein', status: 'ordered', line_id: null, linked: false, withdrawn: false }] }
    await renderScreen(<BillById id={5} />, {
      me: user(['record payment']),
      api: { 'GET /bills/5': bill({ appointment_id: 7 }), 'GET /fees/settings': settings, 'GET /appointments/7/bill/orders': notLinked },
    })
    await screen.findByTestId('order-charges')
    expect(screen.queryByTestId('mark-charged')).toBeNull()
  })

  it('shows nothing of orders on a bill without a visit', async () => {
    await renderScreen(<BillById id={5} />, { me: user(['record payment']), api: { 'GET /bills/5': bill(), 'GET /fees/settings': settings } })
    await screen.findByTestId('bill')
    expect(screen.queryByTestId('order-charges')).toBeNull()
  })
})
