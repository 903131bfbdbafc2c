import { expect, test, type Page } from '@playwright/test'
import en from '../src/locales/en.json' with { type: 'json' }
import ru from '../src/locales/ru.json' with { type: 'json' }
import vi from '../src/locales/vi.json' with { type: 'json' }
import zh from '../src/locales/zh.json' with { type: 'json' }
import { activeView, api, bookFirstFree, closeDrawer, day, doctorId, newPatient, openCountingPrints, unique, usePeso } from './helpers'

// A whole clinic day at the front desk, in one language per run, rotating through the four
// by the day of the year: register, book, vitals, visit, prescribe (through the API, as each
// role — their screens have tests of their own), then the money in the language's own words:
// charge, finalise, card and cash with change, the receipt printed, a service not given
// refunded (the bill then owes nothing), and the receptionist's drawer closed with a count.
const LOCALES = { en, ru, zh, vi }
const LANGS = ['en', 'ru', 'zh', 'vi'] as const
const lang = (process.env.EMR_E2E_LANGUAGE as (typeof LANGS)[number] | undefined) ?? LANGS[Math.floor(Date.now() / 86_400_000) % LANGS.length]
const L = LOCALES[lang]
const printed = (p: Page) => p.evaluate(() => (window as unknown as { printed: number }).printed)
/** A button's name: the component library spaces out a two-character Chinese label ("收 款"). */
const button = (label: string) => new RegExp(`^${[...label].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s?')}$`)
/** A translation with its {{placeholders}} filled. */
const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '')

test(`a clinic day at the front desk, in ${lang}`, async ({ browser }) => {
  // A whole day at the desk: about a minute on a quiet machine, three on a busy one (a bound).
  test.setTimeout(360_000)
  const admin = await openCountingPrints(browser, 'admin', lang)
  await usePeso(admin)
  // The supervisor's own drawer, which her cash refund comes from; closed at the day's end.
  const float = await api(admin, 'put', '/api/drawers/float', { opening_float: 50000 })
  expect(float.status(), await float.text()).toBe(200)
  const adminDrawer = ((await float.json()) as { shift_id: number }).shift_id
  const desk = await openCountingPrints(browser, 'receptionist', lang)
  const doc = await openCountingPrints(browser, 'doctor', lang)
  const nurse = await openCountingPrints(browser, 'nurse', lang)

  // Register, book, arrive; the nurse's vitals; the doctor's visit and prescription.
  const patient = await newPatient(desk, `Day ${unique()}`)
  const appt = await bookFirstFree(desk, patient.id, await doctorId(desk), day(4), 8)
  expect((await api(desk, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(nurse, 'put', `/api/appointments/${appt}/visit/vitals`, { version: 0, vitals: { bp_systolic: 128, bp_diastolic: 82, heart_rate: 76, temperature: 36.8 } })).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  const visit = (await (await api(doc, 'get', `/api/appointments/${appt}/visit`)).json()) as { version: number }
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: visit.version, chief_complaint: 'Cut on the hand', diagnoses: [{ code: 'S61.9', primary: true }] })).status()).toBe(200)
  const rx = await api(doc, 'post', `/api/appointments/${appt}/prescriptions`, { items: [{ medicine: 'Paracetamol 500 mg tablet', dose: '1 tablet', route: 'oral', frequency: '3 times a day', quantity: '10' }] })
  expect(rx.status()).toBe(201)
  // The doctor charges the visit and a dressing (₱500.00 + ₱350.50).
  let r = await api(doc, 'post', `/api/appointments/${appt}/bill/lines`, { description: 'Consultation', quantity: 1, unit_price: 50000 })
  expect(r.status()).toBe(201)
  const billId = ((await r.json()) as { id: number }).id
  r = await api(doc, 'post', `/api/bills/${billId}/lines`, { description: 'Wound dressing', quantity: 1, unit_price: 35050 })
  expect(r.status()).toBe(201)

  // The desk finds the bill in the bills list by the patient's number, and finalises it.
  await desk.goto('/fees/bills')
  await activeView(desk).getByRole('searchbox', { name: L.bills.search }).fill(patient.mrn)
  await activeView(desk).getByTestId('bills-list').getByRole('link', { name: fill(L.bills.draftNo, { id: String(billId) }) }).click()
  await expect(desk).toHaveURL(`/bills/${billId}`)
  const bill = activeView(desk).getByTestId('bill')
  await bill.getByRole('button', { name: button(L.bill.finalise) }).click()
  await desk.getByRole('alertdialog', { name: L.bill.finaliseConfirm }).getByRole('button', { name: button(L.bill.finalise) }).click()
  await expect(bill.getByRole('button', { name: button(L.bill.takePayment) })).toBeVisible()

  // Part by card, the rest in cash with change; Enter takes it.
  await bill.getByRole('button', { name: button(L.bill.takePayment) }).click()
  let dialog = desk.getByRole('dialog')
  await dialog.getByText(L.bill.methods.card, { exact: true }).click()
  const amount = dialog.getByLabel(fill(L.bill.amountIn, { currency: 'PHP' }))
  await amount.fill('300.50')
  await dialog.getByRole('button', { name: button(L.bill.receive) }).click()
  await expect(dialog).toBeHidden()
  await bill.getByRole('button', { name: button(L.bill.takePayment) }).click()
  dialog = desk.getByRole('dialog')
  await expect(dialog.getByLabel(fill(L.bill.amountIn, { currency: 'PHP' }))).not.toHaveValue('')
  await dialog.getByLabel(fill(L.bill.tenderedIn, { currency: 'PHP' })).fill('600')
  // The day's first cash asks what the cashier's drawer starts with (ADR 41).
  await dialog.getByLabel(fill(L.cashUp.newFloatIn, { currency: 'PHP' })).fill('1000')
  await expect(dialog.getByTestId('change')).toContainText('50')
  await dialog.getByLabel(fill(L.bill.tenderedIn, { currency: 'PHP' })).press('Enter')
  await expect(dialog).toBeHidden()
  await expect(bill.getByTestId('bill-balance')).toContainText('0')

  // The receipt, printed straight from the payment: amount in words, not a fiscal paper.
  await activeView(desk).getByTestId('print-new-receipt').click()
  await expect(desk).toHaveURL(new RegExp(`/bills/${billId}/print/receipt`))
  const receipt = activeView(desk).getByTestId('receipt-sheet')
  await expect(receipt).toContainText(L.bill.receiptTitle, { ignoreCase: true })
  await expect(receipt.getByTestId('amount-in-words')).toBeVisible()
  await expect(receipt.getByTestId('receipt-not-fiscal')).toHaveText(L.bill.receiptNotFiscal)
  await activeView(desk).getByRole('button', { name: button(L.bill.print) }).click()
  await expect.poll(() => printed(desk)).toBe(1)

  // The dressing was not needed: the supervisor refunds it; the bill then owes nothing.
  await admin.goto(`/bills/${billId}`)
  const adminBill = activeView(admin).getByTestId('bill')
  await adminBill.getByRole('button', { name: button(L.bill.refund) }).click()
  dialog = admin.getByRole('dialog')
  const service = dialog.getByLabel(L.bill.refundService, { exact: true })
  await service.selectOption((await service.getByRole('option', { name: /^Wound dressing/ }).getAttribute('value'))!)
  await dialog.getByLabel(L.bill.reason).fill('Dressing not needed')
  await dialog.getByRole('button', { name: button(L.bill.refund) }).click()
  await expect(dialog).toBeHidden()
  await expect(adminBill.getByTestId('bill-credited')).toBeVisible()
  await expect(adminBill.getByTestId('bill-balance')).toContainText('0')
  await expect(adminBill.getByRole('button', { name: button(L.bill.takePayment) })).toHaveCount(0)

  // The receptionist counts her drawer blind (ADR 41): short, it waits for a supervisor.
  await desk.goto('/fees/cash-up')
  const drawer = activeView(desk).getByTestId('drawer').filter({ has: desk.getByRole('button', { name: button(L.cashUp.close) }) }).first()
  await drawer.getByRole('button', { name: button(L.cashUp.close) }).click()
  dialog = desk.getByRole('dialog')
  await dialog.getByLabel(fill(L.cashUp.countedIn, { currency: 'PHP' })).fill('0')
  await dialog.getByRole('button', { name: button(L.cashUp.recordCount) }).click()
  await expect(dialog.getByRole('button', { name: button(L.cashUp.close) })).toBeDisabled()
  await desk.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  // The administrator, as supervisor, counts it again, explains the difference and acknowledges it.
  await admin.goto('/fees/cash-up')
  const hers = activeView(admin).getByTestId('drawer').filter({ hasText: 'E2E receptionist' }).filter({ has: admin.getByRole('button', { name: button(L.cashUp.close) }) }).first()
  await hers.getByRole('button', { name: button(L.cashUp.close) }).click()
  const recount = admin.getByRole('dialog')
  await recount.getByLabel(fill(L.cashUp.countedIn, { currency: 'PHP' })).fill('0')
  await recount.getByRole('button', { name: button(L.cashUp.recordCount) }).click()
  await recount.getByLabel(L.cashUp.note).fill('Cash taken to the bank')
  await recount.getByRole('checkbox', { name: L.cashUp.acknowledge }).check()
  await recount.getByRole('button', { name: button(L.cashUp.close) }).click()
  await expect(recount).toBeHidden()
  await desk.reload()
  await expect(activeView(desk).getByTestId('drawer-difference').first()).toBeVisible()
  await closeDrawer(admin, adminDrawer)
  for (const p of [admin, desk, doc, nurse]) await p.context().close()
})
