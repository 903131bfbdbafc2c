// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bill, Bills, Contact, PortalSession, Visits } from './api'
import { PortalPage } from './PortalPage'
import { formatDate, formatDay, formatMoney, LANGS, TEXTS, type Lang, type Texts } from './texts'

const signedOut: PortalSession = { signed_in: false, clinic: 'Sunrise Clinic', records: [], idle_minutes: 20 }
const signedIn: PortalSession = { signed_in: true, clinic: 'Sunrise Clinic', records: [{ id: 7, first_name: 'Lan', last_name: 'Trần', guardian: false }], idle_minutes: 20 }
const visit = { id: 31, starts_at: '2026-12-03T02:30:00Z', date: '2026-12-03', time: '09:30', duration_minutes: 15, doctor: 'Dr Minh', status: 'booked', confirmed: false, can_cancel: true, can_move: true, version: 2 }
const visits: Visits = { upcoming: [visit], past: [], cancel_hours: 2 }

type Answer = { status: number; body?: unknown }

/** Answers the page's calls as the server would, recording each with its CSRF header. */
function serve(answers: Record<string, Answer | Answer[]>) {
  const calls: { key: string; csrf: string | null; body: unknown }[] = []
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`
    const headers = (init?.headers ?? {}) as Record<string, string>
    calls.push({ key, csrf: headers['X-XSRF-TOKEN'] ?? null, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    const a = answers[key]
    const next = Array.isArray(a) ? (a.length > 1 ? a.shift()! : a[0]) : (a ?? { status: 404, body: { error: 'Not found.', code: 'portal.not_found' } })
    return Promise.resolve(new Response(next.body === undefined ? null : JSON.stringify(next.body), { status: next.status }))
  })
  return calls
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  document.cookie = 'XSRF-PORTAL=; max-age=0'
})

describe('the patient portal', () => {
  it.each(LANGS.map((l) => l.code))('signs in with a code (%s), echoing its CSRF token, and answers the same for any address', async (lang) => {
    const t = TEXTS[lang]
    document.cookie = 'XSRF-PORTAL=csrf-1'
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedOut },
      'POST /api/portal/sign-in/code': { status: 200, body: { code_id: 42 } },
      'POST /api/portal/sign-in/code/42': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
    })
    window.history.replaceState(null, '', `/portal?lang=${lang}`)
    render(<PortalPage />)
    expect(await screen.findByRole('heading', { name: t.signInTitle })).toBeTruthy()
    await waitFor(() => expect(document.documentElement.lang).toBe(lang)) // set by an effect after that render
    fireEvent.input(screen.getByLabelText(t.emailAddress), { target: { value: 'lan@example.test' } })
    fireEvent.click(screen.getByRole('button', { name: t.sendCode }))
    expect(await screen.findByText(t.codeSent)).toBeTruthy()
    fireEvent.input(screen.getByLabelText(t.code), { target: { value: '123 456' } })
    fireEvent.click(screen.getByRole('button', { name: t.signIn }))
    expect(await screen.findByText('Dr Minh', { exact: false })).toBeTruthy()
    expect(screen.getByText('09:30')).toBeTruthy()
    const post = calls.filter((c) => c.key.startsWith('POST'))
    expect(post.map((c) => c.csrf)).toEqual(['csrf-1', 'csrf-1'])
    expect(post[0].body).toEqual({ channel: 'email', address: 'lan@example.test', language: lang })
    expect(post[1].body).toEqual({ code: '123456' })
  })

  it('signs in with an access code and birth date, and shows the server’s refusal', async () => {
    const t = TEXTS.en
    serve({
      'GET /api/portal/session': { status: 200, body: signedOut },
      'POST /api/portal/sign-in/access': [
        { status: 422, body: { error: 'The access code or the date of birth is not right.', code: 'portal.access_wrong' } },
        { status: 200, body: signedIn },
      ],
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
    })
    window.history.replaceState(null, '', '/portal?lang=en')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.byAccess }))
    fireEvent.input(screen.getByLabelText(t.accessCode), { target: { value: 'ABCD-EFGH-JKMN' } })
    fireEvent.input(screen.getByLabelText(t.birthDate), { target: { value: '1985-03-04' } })
    fireEvent.click(screen.getByRole('button', { name: t.signIn }))
    expect((await screen.findByRole('alert')).textContent).toContain('not right')
    fireEvent.click(screen.getByRole('button', { name: t.signIn }))
    expect(await screen.findByRole('heading', { name: t.appointments })).toBeTruthy()
  })

  it('asks before cancelling, then shows the appointment cancelled', async () => {
    const t = TEXTS.en
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'POST /api/portal/records/7/appointments/31/cancel': { status: 200, body: { ...visits, upcoming: [{ ...visit, status: 'cancelled', can_cancel: false }] } },
    })
    window.history.replaceState(null, '', '/portal?lang=en')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.cancel }))
    const ask = screen.getByRole('group', { name: t.cancelAsk })
    fireEvent.click(within(ask).getByRole('button', { name: t.cancelYes }))
    expect(await screen.findByText(t.cancelled)).toBeTruthy()
    expect(screen.getByText(t.status.cancelled)).toBeTruthy()
    expect(calls.map((c) => c.key)).toContain('POST /api/portal/records/7/appointments/31/cancel')
  })

  it.each(['en', 'vi'] as Lang[])('moves a visit to a free time of another day (%s), its own time left out; a time taken meanwhile is said and the day read again', async (lang) => {
    const t = TEXTS[lang]
    const times = (day: string, list: string[]) => ({
      status: 200,
      body: { data: list.map((hhmm) => ({ starts_at: `${day}T${hhmm}:00+07:00`, day, time: hhmm, doctor_id: 3, duration_minutes: 30 })) },
    })
    const moved = { ...visits, upcoming: [{ ...visit, starts_at: '2026-12-04T03:00:00Z', date: '2026-12-04', time: '10:00', version: 3 }] }
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/appointments/31/times?days=1&from=2026-12-03': times('2026-12-03', ['09:30']),
      'GET /api/portal/records/7/appointments/31/times?days=1&from=2026-12-04': [times('2026-12-04', ['08:00', '10:00']), times('2026-12-04', ['10:00'])],
      'POST /api/portal/records/7/appointments/31/move': [
        { status: 409, body: { error: 'This time is no longer free. Choose another.', code: 'booking.slot_gone' } },
        { status: 200, body: moved },
      ],
    })
    window.history.replaceState(null, '', `/portal?lang=${lang}`)
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.move }))
    const panel = screen.getByRole('group', { name: t.moveTitle })
    // The visit's own day offers only its own time: none to move to.
    expect(await within(panel).findByText(t.noTimes)).toBeTruthy()
    fireEvent.click(within(panel).getByRole('button', { name: t.dayAfter }))
    fireEvent.click(await within(panel).findByRole('radio', { name: '08:00' }))
    fireEvent.click(within(panel).getByRole('button', { name: t.moveTo(formatDate(lang, '2026-12-04'), '08:00') }))
    expect((await within(panel).findByRole('alert')).textContent).toContain('no longer free')
    // Read again: 08:00 is gone, and nothing is chosen.
    // (Read again: the list shows 10:00 once it has come back, without 08:00.)
    const ten = await within(panel).findByRole('radio', { name: '10:00' })
    expect(within(panel).queryByRole('radio', { name: '08:00' })).toBeNull()
    expect((within(panel).getByRole('button', { name: t.chooseTime }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(ten)
    fireEvent.click(within(panel).getByRole('button', { name: t.moveTo(formatDate(lang, '2026-12-04'), '10:00') }))
    expect(await screen.findByText(t.moved(formatDate(lang, '2026-12-04'), '10:00'))).toBeTruthy()
    expect(screen.queryByRole('group', { name: t.moveTitle })).toBeNull()
    const posts = calls.filter((c) => c.key.endsWith('/move'))
    expect(posts.map((c) => c.body)).toEqual([
      { starts_at: '2026-12-04T08:00:00+07:00', version: 2 },
      { starts_at: '2026-12-04T10:00:00+07:00', version: 2 },
    ])
  })

  it('reads the visit again when it changed since it was listed, and moves it with its new version', async () => {
    const t = TEXTS.en
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': [
        { status: 200, body: visits },
        { status: 200, body: { ...visits, upcoming: [{ ...visit, version: 3 }] } },
      ],
      'GET /api/portal/records/7/appointments/31/times?days=1&from=2026-12-03': {
        status: 200,
        body: { data: [{ starts_at: '2026-12-03T03:00:00Z', day: '2026-12-03', time: '10:00', doctor_id: 3, duration_minutes: 30 }] },
      },
      'POST /api/portal/records/7/appointments/31/move': [
        { status: 409, body: { error: 'Someone else changed this record after you opened it.', code: 'error.conflict' } },
        { status: 200, body: visits },
      ],
    })
    window.history.replaceState(null, '', '/portal?lang=en')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.move }))
    const panel = screen.getByRole('group', { name: t.moveTitle })
    fireEvent.click(await within(panel).findByRole('radio', { name: '10:00' }))
    fireEvent.click(within(panel).getByRole('button', { name: t.moveTo(formatDate('en', '2026-12-03'), '10:00') }))
    expect((await within(panel).findByRole('alert')).textContent).toContain('changed this record')
    fireEvent.click(await within(panel).findByRole('radio', { name: '10:00' }))
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/portal/records/7/appointments')).toHaveLength(2))
    fireEvent.click(within(panel).getByRole('button', { name: t.moveTo(formatDate('en', '2026-12-03'), '10:00') }))
    await waitFor(() => expect(calls.filter((c) => c.key.endsWith('/move')).map((c) => (c.body as { version: number }).version)).toEqual([2, 3]))
  })

  // The cashier's review of 2026-11-29 (ADR 44).
  const day = '2026-11-20T03:00:00Z'
  const receipt = (kind: 'payment' | 'refund', amount: number, credit: number, n: string) => ({ kind, method: 'cash', amount, credit, still_owed: kind === 'refund' && credit === 0, receipt: n, at: day })
  const credited: Bill = {
    number: 'BL-2026-000001', status: 'final', issued_at: day, subtotal: 150000, discount: 0, total: 150000, paid: 0, credited: 150000, balance: 0,
    lines: [{ description: 'Khám bệnh', quantity: 1, discount: 0, amount: 150000 }],
    receipts: [receipt('payment', 150000, 0, 'PR-2026-000001'), receipt('refund', 150000, 150000, 'RS-2026-000001')],
  }
  const discounted: Bill = {
    number: 'BL-2026-000002', status: 'final', issued_at: day, subtotal: 94000, discount: 9400, total: 84600, paid: 50000, credited: 0, balance: 34600,
    lines: [{ description: 'Ultrasound', quantity: 1, discount: 6000, amount: 54000 }, { description: 'Blood count', quantity: 2, discount: 0, amount: 40000 }],
    receipts: [receipt('payment', 50000, 0, 'PR-2026-000002')],
  }
  const owedAgain: Bill = {
    number: 'BL-2026-000003', status: 'final', issued_at: day, subtotal: 20000, discount: 0, total: 20000, paid: 0, credited: 0, balance: 20000,
    lines: [{ description: 'X-ray', quantity: 1, discount: 0, amount: 20000 }],
    receipts: [receipt('payment', 20000, 0, 'PR-2026-000003'), receipt('refund', 20000, 0, 'RS-2026-000002')],
  }
  const creditNote: Bill = {
    number: 'BL-2026-000004', status: 'final', issued_at: day, subtotal: 30000, discount: 0, total: 30000, paid: 0, credited: 10000, balance: 20000,
    lines: [{ description: 'Dressing', quantity: 1, discount: 0, amount: 30000 }],
    receipts: [receipt('refund', 0, 10000, 'RS-2026-000003')],
  }
  const withdrawn: Bill = { ...owedAgain, number: 'BL-2026-000005', status: 'void', balance: 0, receipts: [] }
  const bills = (list: Bill[], balance: number, issued = list.length): Bills => ({ currency: 'VND', minor_units: 0, balance, issued, bills: list })

  async function openBills(lang: Lang, answer: Bills) {
    serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/bills': { status: 200, body: answer },
    })
    window.history.replaceState(null, '', `/portal?lang=${lang}`)
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: TEXTS[lang].bills }))
    await screen.findByText(TEXTS[lang].notTaxInvoice)
  }
  /** A bill's rows, label and amount, as the page shows them. */
  const rows = (number: string) =>
    [...screen.getByText(number, { exact: false }).closest('li')!.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.textContent ?? ''))
  const row = (number: string, label: string) => rows(number).find((r) => r[0] === label)?.[1]
  // A sentence with an amount, as the page's text is matched: its spaces (the no-break ones
  // some languages write money with) as one plain space.
  const shown = (text: string) => screen.queryByText(text.replace(/\s+/g, ' '))
  const heading = (number: string) => screen.getByText(number, { exact: false }).textContent

  it('shows a credited bill as nothing to pay, its rows adding up, in the clinic’s currency', async () => {
    const t = TEXTS.vi
    const money = (n: number) => formatMoney('vi', n, 'VND', 0)
    await openBills('vi', bills([credited], 0))
    expect(screen.getByText(t.nothingOwed)).toBeTruthy()
    expect(heading(credited.number)).toBe(`${t.bill} ${credited.number} ${t.settled}`)
    expect(row(credited.number, t.total)).toBe(money(150000))
    expect(row(credited.number, t.credited)).toBe(`−${money(150000)}`)
    expect(row(credited.number, t.paidNet)).toBe(money(0))
    expect(row(credited.number, t.balanceDue)).toBe(money(0))
    // The refund credited the bill: it is labelled a refund for a service not given, never "still owed".
    expect(shown(t.refundCredited(money(150000)))).toBeTruthy()
    expect(screen.queryByText(t.refundStillOwed)).toBeNull()
  })

  it('shows a discounted bill’s subtotal, discount and total, and total − credited − paid = balance', async () => {
    const t = TEXTS.en
    const money = (n: number) => formatMoney('en', n, 'VND', 0)
    await openBills('en', bills([discounted], 34600))
    expect(shown(t.owed(money(34600)))).toBeTruthy()
    expect(heading(discounted.number)).toBe(`${t.bill} ${discounted.number} ${t.toPay}`)
    expect(shown(t.lineDiscount(money(6000)))).toBeTruthy()
    expect(rows(discounted.number)).toEqual([
      [`Ultrasound${t.lineDiscount(money(6000))}`, money(54000)],
      ['Blood count × 2', money(40000)],
      [t.subtotal, money(94000)],
      [t.discount, `−${money(9400)}`],
      [t.total, money(84600)],
      [t.credited, money(0)],
      [t.paidNet, `−${money(50000)}`],
      [t.balanceDue, money(34600)],
      [`${t.received}${t.paymentReceipt} PR-2026-000002 · ${formatDay('en', day)}`, money(50000)],
    ])
  })

  it.each(LANGS.map((l) => l.code))('labels money given back that is still owed as owed, a credit note as a credit (%s)', async (lang) => {
    const t = TEXTS[lang]
    const money = (n: number) => formatMoney(lang, n, 'VND', 0)
    await openBills(lang, bills([owedAgain, creditNote], 40000))
    expect(screen.getByText(t.refundStillOwed)).toBeTruthy()
    expect(shown(t.creditNote(money(10000)))).toBeTruthy()
    expect(shown(t.refundCredited(money(20000)))).toBeNull()
    // The money given back is owed again: the bill asks it, nothing credited.
    expect(row(owedAgain.number, t.credited)).toBe(money(0))
    expect(row(owedAgain.number, t.balanceDue)).toBe(money(20000))
    // A credit note gave nothing back: no amount moved, the credit taken off the bill.
    expect(rows(creditNote.number).at(-1)?.[1]).toBe('')
    expect(row(creditNote.number, t.credited)).toBe(`−${money(10000)}`)
    expect(screen.getByText(t.notTaxInvoice)).toBeTruthy()
  })

  it('shows the server’s balance of every bill, not the sum of those listed, and says only the newest are listed', async () => {
    const t = TEXTS.ru
    const money = (n: number) => formatMoney('ru', n, 'VND', 0)
    // The listed bills ask 20,000; older bills not listed ask 30,000 more.
    await openBills('ru', bills([owedAgain, withdrawn], 50000, 57))
    expect(shown(t.owed(money(50000)))).toBeTruthy()
    expect(screen.getByText(t.newestShown(2, 57))).toBeTruthy()
    expect(screen.getByText(t.voidNote)).toBeTruthy()
    expect(row(withdrawn.number, t.balanceDue)).toBeUndefined()
  })

  it('names bills and receipts as the clinic’s payment papers, never as tax invoices', () => {
    const { en, ru, zh, vi } = TEXTS
    const billWords = (t: Texts) => [t.bills, t.noBills, t.bill, t.owed('1'), t.newestShown(1, 2), t.voidNote, t.paymentReceipt, t.received, t.receipts]
    expect(billWords(vi).filter((w) => /hóa đơn/i.test(w))).toEqual([])
    expect(vi.bill).toBe('Phiếu thanh toán')
    expect(vi.notTaxInvoice).toMatch(/không phải hóa đơn/)
    expect(zh.balanceDue).toBe('待付金额')
    expect(zh.notTaxInvoice).toMatch(/不是发票/)
    expect(ru.bill).toBe('Счёт')
    expect(ru.paymentReceipt).toBe('Квитанция об оплате')
    expect(billWords(ru).filter((w) => /чек/i.test(w))).toEqual([])
    expect(ru.notTaxInvoice).toMatch(/не кассовый чек/)
    expect(en.notTaxInvoice).toMatch(/not tax invoices/)
  })

  it('shows the phone and e-mail as changed at the desk and saves only the reminders', async () => {
    const t = TEXTS.zh
    const contact: Contact = { phone: '+84 912 345 678', email: 'lan@example.test', reminders: 'email', message_language: '', version: 3, can_change: true }
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/contact': { status: 200, body: contact },
      'PUT /api/portal/records/7/contact': { status: 200, body: { ...contact, reminders: 'none', version: 4 } },
    })
    window.history.replaceState(null, '', '/portal?lang=zh')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.contact }))
    expect(await screen.findByText(t.contactAtDesk)).toBeTruthy()
    expect(screen.getByText('lan@example.test')).toBeTruthy()
    expect(screen.queryByRole('textbox')).toBeNull()
    fireEvent.click(screen.getByRole('radio', { name: t.remindersBy.none }))
    fireEvent.click(screen.getByRole('button', { name: t.save }))
    expect(await screen.findByText(t.saved)).toBeTruthy()
    expect(calls.find((c) => c.key === 'PUT /api/portal/records/7/contact')?.body).toEqual({ reminders: 'none', message_language: '', version: 3 })
  })

  it.each(['en', 'ru'] as Lang[])('lists where the patient is signed in and signs out everywhere else (%s)', async (lang) => {
    const t = TEXTS[lang]
    const contact: Contact = { phone: '', email: 'lan@example.test', reminders: 'email', message_language: '', version: 3, can_change: true }
    const here = { id: 'aaaa', via: 'code', address: 'l***@example.test', created_at: '2026-11-30T01:00:00Z', last_seen_at: '2026-11-30T01:05:00Z', current: true }
    const there = { id: 'bbbb', via: 'access', address: '', created_at: '2026-11-29T08:00:00Z', last_seen_at: '2026-11-29T08:10:00Z', current: false }
    document.cookie = 'XSRF-PORTAL=csrf-9'
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/contact': { status: 200, body: contact },
      'GET /api/portal/sessions': [
        { status: 200, body: { data: [here, there] } },
        { status: 200, body: { data: [here] } },
      ],
      'POST /api/portal/sessions/end-others': { status: 200, body: { ended: 1 } },
    })
    window.history.replaceState(null, '', `/portal?lang=${lang}`)
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.contact }))
    const section = await screen.findByRole('region', { name: t.sessionsTitle })
    expect(await within(section).findByText(t.byCodeTo('l***@example.test'), { exact: false })).toBeTruthy()
    expect(within(section).getByText(t.thisDevice)).toBeTruthy()
    expect(within(section).getByText(t.byAccessCode)).toBeTruthy()
    fireEvent.click(within(section).getByRole('button', { name: t.endOthers }))
    expect(await within(section).findByText(t.endedOthers(1))).toBeTruthy()
    await waitFor(() => expect(within(section).queryByText(t.byAccessCode)).toBeNull())
    expect((within(section).getByRole('button', { name: t.endOthers }) as HTMLButtonElement).disabled).toBe(true)
    expect(calls.filter((c) => c.key === 'POST /api/portal/sessions/end-others').map((c) => c.csrf)).toEqual(['csrf-9'])
  })

  it('switching language reads nothing again that does not depend on it, and keeps an unsaved choice (the rereading of 2026-11-30)', async () => {
    const contact: Contact = { phone: '', email: 'lan@example.test', reminders: 'email', message_language: '', version: 3, can_change: true }
    const calls = serve({
      'GET /api/portal/session': { status: 200, body: signedIn },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/contact': { status: 200, body: contact },
      'GET /api/portal/sessions': { status: 200, body: { data: [] } },
    })
    window.history.replaceState(null, '', '/portal?lang=en')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.en.contact }))
    fireEvent.click(await screen.findByRole('radio', { name: TEXTS.en.remindersBy.none }))
    fireEvent.change(screen.getByRole('combobox', { name: TEXTS.en.language }), { target: { value: 'vi' } })
    expect(await screen.findByRole('heading', { name: TEXTS.vi.contact })).toBeTruthy()
    expect((screen.getByRole('radio', { name: TEXTS.vi.remindersBy.none }) as HTMLInputElement).checked).toBe(true)
    const reads = (key: string) => calls.filter((c) => c.key === key).length
    expect([reads('GET /api/portal/records/7/appointments'), reads('GET /api/portal/records/7/contact'), reads('GET /api/portal/sessions')]).toEqual([1, 1, 1])
  })

  it('lets a guardian see a child’s contact but change nothing', async () => {
    const t = TEXTS.ru
    const child: PortalSession = { ...signedIn, records: [{ id: 7, first_name: 'Минь', last_name: 'Чан', guardian: true }] }
    serve({
      'GET /api/portal/session': { status: 200, body: child },
      'GET /api/portal/records/7/appointments': { status: 200, body: visits },
      'GET /api/portal/records/7/contact': { status: 200, body: { phone: '', email: 'mother@example.test', reminders: 'email', message_language: 'ru', version: 1, can_change: false } },
    })
    window.history.replaceState(null, '', '/portal?lang=ru')
    render(<PortalPage />)
    fireEvent.click(await screen.findByRole('button', { name: t.contact }))
    expect(await screen.findByText(t.contactGuardian)).toBeTruthy()
    expect(screen.getByText(t.notGiven)).toBeTruthy()
    expect(screen.queryByRole('button', { name: t.save })).toBeNull()
    expect(screen.getByRole('radio', { name: t.remindersBy.email }).matches(':disabled')).toBe(true)
  })

  it('goes back to signing in when the session has ended', async () => {
    const t = TEXTS.ru
    serve({
      'GET /api/portal/session': [{ status: 200, body: signedIn }, { status: 200, body: signedOut }],
      'GET /api/portal/records/7/appointments': { status: 401, body: { error: 'Вы вышли из портала.', code: 'portal.signed_out' } },
    })
    window.history.replaceState(null, '', '/portal?lang=ru')
    render(<PortalPage />)
    expect(await screen.findByText(t.signedOut)).toBeTruthy()
    await waitFor(() => expect(screen.getByRole('heading', { name: t.signInTitle })).toBeTruthy())
  })
})
