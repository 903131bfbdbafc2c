import { expect, test } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, authenticate, login, newPatient, openCountingPrints, sidebar, unique, usePeso } from './helpers'

test('an administrator starts the price list, prices a service, sets the currency and exports the list; a nurse has no fees menu and the API refuses her', async ({ page, browser }) => {
  await authenticate(page, 'admin')
  await page.goto('/administrator/services')
  const view = activeView(page)
  // An empty list offers the starter list, named in the user's language, at price 0.
  await expect(view.getByText('The price list is empty.', { exact: false })).toBeVisible()
  await view.getByRole('button', { name: 'Add the starter list' }).click()
  await expect(view.getByRole('button', { name: 'Consultation, new patient' })).toBeVisible()
  await expect(view.getByRole('button', { name: 'Add the starter list' })).toHaveCount(0)

  // The currency first: prices are typed and shown in it.
  await view.getByLabel('Clinic currency').click()
  await page.keyboard.type('PHP')
  await page.keyboard.press('Enter')
  await view.getByLabel('Consultation fee of a New visit').click()
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'CONS-NEW' }).click()
  await view.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Fee settings saved.')).toBeVisible()

  // A price with more decimals than the currency has is refused at once; 500.5 is ₱500.50.
  await view.getByRole('button', { name: 'Consultation, new patient' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change service' })
  await dialog.getByLabel('Price (PHP)').fill('500.505')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText('Write the price as a number', { exact: false })).toBeVisible()
  await dialog.getByLabel('Price (PHP)').fill('500.5')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Service saved.')).toBeVisible()
  await expect(view.getByRole('row', { name: /CONS-NEW/ })).toContainText('₱500.50')

  // The export is the list as CSV, in major units.
  const csv = await (await api(page, 'get', '/api/services/export')).text()
  expect(csv).toContain('CONS-NEW,"Consultation, new patient",consultation,500.50,yes')

  // A nurse: no menu entry, and the server refuses her.
  const nurseContext = await browser.newContext()
  const nurse = await nurseContext.newPage()
  await login(nurse, 'nurse')
  await expect(sidebar(nurse).getByRole('menuitem', { name: 'Price list' })).toHaveCount(0)
  expect((await api(nurse, 'get', '/api/services')).status()).toBe(403)
  expect((await api(nurse, 'post', '/api/services', { code: 'X', name: 'X', category: 'other', price: 1 })).status()).toBe(403)
  await nurseContext.close()
})

// A drawn signature for the statement of fees: a stroke, as the profile's pad would make.
const SIGNATURE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><path d="M10 40 C 40 10, 70 50, 100 20 S 160 40, 190 15" stroke="#000" fill="none" stroke-width="3"/></svg>'

test('a visit from the doctor’s charge to the day’s cash-up: discount with a reason, finalise, cash with change and card, receipt and statement printed; the final bill is fixed', async ({ browser }) => {
  test.slow()
  const open = (who: string) => openCountingPrints(browser, who)
  const admin = await open('admin')
  await usePeso(admin)
  const code = unique().toUpperCase()
  for (const [c, name, category, price] of [[`CONS-${code}`, `Follow-up consultation ${code}`, 'consultation', 50000], [`PROC-${code}`, `Wound dressing ${code}`, 'procedure', 35050]] as const)
    expect((await api(admin, 'post', '/api/services', { code: c, name, category, price })).status()).toBe(201)

  // Booked and arrived at the front desk; the doctor starts the visit.
  const desk = await open('receptionist')
  const last = `Fees-${unique()}`
  const patient = await newPatient(desk, last)
  const doctor = await doctorId(desk)
  const appointment = await bookFirstFree(desk, patient.id, doctor, day(0), 13, 'follow-up')
  expect((await api(desk, 'post', `/api/appointments/${appointment}/arrive`, {})).status()).toBe(200)
  const doc = await open('doctor')
  const xsrf = (await doc.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  const signed = await doc.request.put('/api/profile/signature', { headers: { 'X-XSRF-TOKEN': xsrf }, multipart: { file: { name: 'signature.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SIGNATURE) } } })
  expect(signed.status()).toBeLessThan(300)
  expect((await api(doc, 'post', `/api/appointments/${appointment}/start`, {})).status()).toBe(200)

  // The doctor adds the procedure during the visit, from the visit's form.
  await doc.goto(`/appointments/form/${appointment}`)
  const visitBill = activeView(doc).getByTestId('bill')
  await visitBill.getByLabel('Service').click()
  await doc.keyboard.type(`PROC-${code}`)
  await doc.keyboard.press('Enter')
  await visitBill.getByRole('button', { name: 'Add' }).click()
  await expect(visitBill.getByRole('row', { name: new RegExp(`Wound dressing ${code}`) })).toContainText('₱350.50')

  // The front desk sees the bill in the queue, opens it and adds the consultation fee.
  await desk.goto(`/appointments/appointments?date=${day(0)}&doctor=${doctor}`)
  const row = activeView(desk).getByRole('row', { name: new RegExp(last) })
  await expect(row.getByText('Charges open')).toBeVisible()
  await row.getByRole('button', { name: 'Bill' }).click()
  const drawer = desk.getByRole('dialog', { name: new RegExp(last) })
  const bill = drawer.getByTestId('bill')
  await bill.getByLabel('Service').click()
  await desk.keyboard.type(`CONS-${code}`)
  await desk.keyboard.press('Enter')
  await bill.getByRole('button', { name: 'Add' }).click()
  await expect(bill.getByRole('row', { name: new RegExp(`Follow-up consultation ${code}`) })).toBeVisible()

  // 20 % off the whole bill needs a reason: 850.50 − 170.10 = 680.40.
  await bill.getByRole('button', { name: 'Discount and notes' }).click()
  const discount = desk.getByRole('dialog', { name: 'Discount on the whole bill' })
  await discount.getByText('Percent', { exact: true }).click()
  await discount.getByLabel('Percent (%)').fill('20')
  await discount.getByRole('button', { name: 'Save' }).click()
  await expect(discount.getByText('This field is required.')).toBeVisible()
  await discount.getByLabel('Reason for the discount').fill('Senior citizen')
  await discount.getByRole('button', { name: 'Save' }).click()
  await expect(discount).toBeHidden()
  await expect(bill.getByTestId('bill-total')).toHaveText('₱680.40')

  // Finalised: numbered, and "to pay" in the queue.
  await bill.getByRole('button', { name: 'Finalise' }).click()
  await desk.getByRole('alertdialog', { name: /^Finalise the bill\?/ }).getByRole('button', { name: 'Finalise' }).click()
  await expect(desk.getByText('The bill is finalised.')).toBeVisible()
  await expect(bill.getByTestId('bill-balance')).toHaveText('₱680.40')
  await expect(row.getByTestId('tag-to-pay')).toContainText('₱680.40')
  const billId = ((await (await api(desk, 'get', `/api/appointments/${appointment}/bill`)).json()) as { id: number }).id

  // Part in cash: 300 from 500 handed over, change 200 shown before it is taken. (Her drawer
  // is opened with its float first: another test of the run may have closed it.)
  expect((await api(desk, 'put', '/api/drawers/float', { opening_float: 0 })).status()).toBe(200)
  await bill.getByRole('button', { name: 'Take payment' }).click()
  let pay = desk.getByRole('dialog', { name: 'Take payment' })
  await pay.getByLabel('Amount (PHP)').fill('300')
  await pay.getByLabel('Cash handed over (PHP)').fill('500')
  await expect(pay.getByTestId('change')).toContainText('₱200.00')
  await pay.getByRole('button', { name: 'Receive' }).click()
  await expect(desk.getByText(/Payment received: receipt PR-\d{4}-\d{6}\. Give ₱200\.00 in change\./)).toBeVisible()
  await expect(bill.getByTestId('bill-balance')).toHaveText('₱380.40')

  // The rest by card, with the slip's number.
  await bill.getByRole('button', { name: 'Take payment' }).click()
  pay = desk.getByRole('dialog', { name: 'Take payment' })
  await pay.getByText('Card', { exact: true }).click()
  await expect(pay.getByLabel('Amount (PHP)')).toHaveValue('380.40')
  await pay.getByLabel('Reference').fill('slip 0042')
  await pay.getByRole('button', { name: 'Receive' }).click()
  await expect(bill.getByTestId('bill-balance')).toHaveText('₱0.00')
  await expect(row.getByTestId('tag-paid')).toBeVisible()

  // The payment receipt of the card payment (which says it is no tax invoice), then the
  // statement of fees with the doctor's signature.
  await bill.getByRole('button', { name: /Print receipt PR-/ }).last().click()
  const receipt = activeView(desk).getByTestId('receipt-sheet')
  await expect(receipt).toContainText('Payment receipt')
  await expect(receipt.getByTestId('receipt-not-fiscal')).toHaveText('This is a payment receipt, not a tax invoice or fiscal receipt.')
  await expect(receipt).toContainText('₱380.40')
  await expect(receipt.getByTestId('sheet-balance')).toHaveText('₱0.00')
  await activeView(desk).getByRole('button', { name: 'Print' }).click()
  await expect.poll(() => desk.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  await desk.goto(`/bills/${billId}/print/statement`)
  const statement = activeView(desk).getByTestId('statement-sheet')
  await expect(statement).toContainText('Statement of fees')
  await expect(statement).toContainText('Senior citizen')
  await expect(statement.getByTestId('statement-signature')).toBeVisible()
  await expect.poll(() => statement.getByTestId('statement-signature').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await activeView(desk).getByRole('button', { name: 'Print' }).click()
  await expect.poll(() => desk.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  // The doctor's account is shared with later tests, which start without a signature.
  expect((await api(doc, 'get', `/api/remove-signature/${doctor}`)).status()).toBe(204)

  // Charges without a visit: a walk-in bill from the patient's chart, a free-text item, finalised.
  await desk.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  await activeView(desk).getByRole('button', { name: 'Bill without a visit' }).click()
  await expect(desk).toHaveURL(/\/bills\/\d+$/)
  const walkIn = activeView(desk).getByTestId('bill')
  await walkIn.getByLabel('An item not on the price list').click()
  await walkIn.getByRole('textbox', { name: 'Item' }).fill('Medical certificate copy')
  await walkIn.getByLabel('Unit price (PHP)').fill('200')
  await walkIn.getByRole('button', { name: 'Add' }).click()
  await expect(walkIn.getByTestId('bill-total')).toHaveText('₱200.00')
  await walkIn.getByRole('button', { name: 'Finalise' }).click()
  await desk.getByRole('alertdialog', { name: /^Finalise the bill\?/ }).getByRole('button', { name: 'Finalise' }).click()
  await expect(walkIn.getByTestId('bill-balance')).toHaveText('₱200.00')
  const walkInId = Number(new URL(desk.url()).pathname.split('/').pop())

  // A finalised bill cannot be changed through the API.
  expect((await api(desk, 'post', `/api/bills/${billId}/lines`, { description: 'Extra', quantity: 1, unit_price: 100 })).status()).toBe(409)

  // Both prints audited with the patient.
  await expect
    .poll(async () => ((await (await api(admin, 'get', `/api/audit-events?action=bill.print&patient_id=${patient.id}`)).json()) as { meta: { total: number } }).meta.total)
    .toBe(2)

  // The day's cash-up shows both methods, and the cashier's takings by each.
  await admin.goto('/fees/cash-up')
  const methods = activeView(admin).getByTestId('cash-up-methods')
  await expect(methods.getByRole('row', { name: /Cash/ })).toBeVisible()
  await expect(methods.getByRole('row', { name: /Card/ })).toBeVisible()
  // Other tests take money at the same desk today: the screen must show the day's figures the
  // server sums (this test's ₱300.00 cash and ₱380.40 card among them).
  const takings = (await (await api(admin, 'get', '/api/reports/cash-up')).json()) as { rows: { cashier: string; method: string; net: number }[] }
  const net = (method: string) => takings.rows.find((r) => r.cashier === 'E2E receptionist' && r.method === method)!.net
  expect(net('cash')).toBeGreaterThanOrEqual(30000)
  expect(net('card')).toBeGreaterThanOrEqual(38040)
  const peso = (minor: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'PHP' }).format(minor / 100)
  const byCashier = activeView(admin).getByRole('row', { name: /E2E receptionist/ })
  await expect(byCashier.filter({ hasText: 'Cash' })).toContainText(peso(net('cash')))
  await expect(byCashier.filter({ hasText: 'Card' })).toContainText(peso(net('card')))
  // The receptionist counts her own drawer: only hers, and no revenue; closing it keeps the
  // count and the difference, and prints on an 80 mm roll.
  await desk.goto('/fees/cash-up')
  await expect(sidebar(desk).getByRole('menuitem', { name: 'Financial reports' })).toHaveCount(0)
  const drawers = activeView(desk).getByTestId('drawer')
  await expect(drawers.first()).toContainText('E2E receptionist')
  for (const name of await drawers.allInnerTexts()) expect(name).toContain('E2E receptionist')
  await expect(activeView(desk).getByTestId('cash-up-methods')).toHaveCount(0)
  const openDrawer = drawers.filter({ has: desk.getByRole('button', { name: 'Close drawer' }) }).first()
  await openDrawer.getByRole('button', { name: 'Close drawer' }).click()
  // Counted blind (the cashier's review, M7): the count first, then what the drawer should hold.
  const count = desk.getByRole('dialog')
  await expect(count.getByText(/Count the cash in the drawer/)).toBeVisible()
  await expect(count.getByTestId('close-expected')).toHaveCount(0)
  await count.getByLabel(/Cash counted in the drawer/).fill('1')
  await count.getByRole('button', { name: 'Record count' }).click()
  await expect(count.getByTestId('close-expected')).toBeVisible()
  // The clinic's limit is 0 by default: any difference waits for a supervisor.
  await expect(count.getByText(/a supervisor must acknowledge it/)).toBeVisible()
  await expect(count.getByRole('button', { name: 'Close drawer' })).toBeDisabled()
  await count.getByRole('button', { name: 'Cancel' }).click()
  // The supervisor counts it again, blind, sees the cashier's first count, explains and acknowledges.
  await admin.goto('/fees/cash-up')
  const hers = activeView(admin).getByTestId('drawer').filter({ hasText: 'E2E receptionist' }).filter({ has: admin.getByRole('button', { name: 'Close drawer' }) }).first()
  await hers.getByRole('button', { name: 'Close drawer' }).click()
  const recount = admin.getByRole('dialog')
  await recount.getByLabel(/Cash counted in the drawer/).fill('2')
  await recount.getByRole('button', { name: 'Record count' }).click()
  await expect(recount.getByText('First count (before the expected amount was shown)')).toBeVisible()
  // A count that differs asks why before the drawer closes.
  await recount.getByRole('button', { name: 'Close drawer' }).click()
  await expect(recount.getByText('The count differs from what the drawer should hold: write why.')).toBeVisible()
  await recount.getByLabel('Note').fill('Counted in a hurry')
  await recount.getByRole('checkbox', { name: 'As supervisor, I acknowledge this difference' }).check()
  await recount.getByRole('button', { name: 'Close drawer' }).click()
  await expect(recount).toBeHidden()
  await desk.reload()
  const closed = drawers.filter({ has: desk.getByTestId('drawer-difference') }).first()
  await expect(closed).toContainText('Difference acknowledged by')
  await expect(closed.getByTestId('drawer-difference')).toBeVisible()
  await closed.getByRole('button', { name: /Print the cash-up of/ }).click()
  await activeView(desk).locator('label.ant-radio-button-wrapper').filter({ hasText: '80 mm roll' }).click()
  await expect(desk.getByTestId('drawer-sheet')).toContainText('Expected in drawer')
  // Her next cash payment opens a new drawer: it asks for the float she starts it with.
  await desk.goto(`/bills/${walkInId}`)
  const again = activeView(desk).getByTestId('bill')
  await again.getByRole('button', { name: 'Take payment' }).click()
  pay = desk.getByRole('dialog', { name: 'Take payment' })
  // Asked as the dialog opens (ADR 41, the clinic manager's run), not after a refusal.
  await expect(pay.getByText('Enter the float your drawer starts with (0 if it starts empty).')).toBeVisible()
  await pay.getByLabel('Float your drawer starts with (PHP)').fill('1000')
  await pay.getByRole('button', { name: 'Receive' }).click()
  await expect(again.getByTestId('bill-balance')).toHaveText('₱0.00')
  // And the dashboard's "Collected today".
  await admin.goto('/dashboard')
  await expect(activeView(admin).getByTestId('figure-collected')).toContainText('₱')

  // A nurse: no fees menu, and the API refuses her the bill.
  const nurse = await open('nurse')
  await expect(sidebar(nurse).getByRole('menuitem', { name: 'Financial reports' })).toHaveCount(0)
  expect((await api(nurse, 'get', `/api/bills/${billId}`)).status()).toBe(403)
  for (const p of [admin, desk, doc, nurse]) await p.context().close()
})

test('the consultation fee shows once the patient has arrived, and is never charged twice without asking', async ({ browser }) => {
  const admin = await openCountingPrints(browser, 'admin')
  await usePeso(admin)
  const code = `CONSD-${unique().toUpperCase()}`
  expect((await api(admin, 'post', '/api/services', { code, name: `Consultation ${code}`, category: 'consultation', price: 40000 })).status()).toBe(201)
  const before = (await (await api(admin, 'get', '/api/fees/settings')).json()) as { currency: string; consultation: Record<string, string>; version: number }
  const set = await api(admin, 'put', '/api/fees/settings', { currency: before.currency, consultation: { ...before.consultation, new: code }, version: before.version })
  expect(set.status()).toBe(200)
  try {
    const desk = await openCountingPrints(browser, 'receptionist')
    const last = `Once-${unique()}`
    const patient = await newPatient(desk, last)
    const doctor = await doctorId(desk)
    const appointment = await bookFirstFree(desk, patient.id, doctor, day(0), 14, 'new')
    expect((await api(desk, 'post', `/api/appointments/${appointment}/arrive`, {})).status()).toBe(200)

    // Arrived: the bill shows the fee it will carry before anything is charged.
    await desk.goto(`/appointments/appointments?date=${day(0)}&doctor=${doctor}`)
    await activeView(desk).getByRole('row', { name: new RegExp(last) }).getByRole('button', { name: 'Bill' }).click()
    const bill = desk.getByRole('dialog', { name: new RegExp(last) }).getByTestId('bill')
    await expect(bill.getByText('Not charged yet: the first charge writes the bill with this consultation fee.')).toBeVisible()
    await expect(bill.getByRole('row', { name: new RegExp(`Consultation ${code}`) })).toContainText('₱400.00')

    // Charged by hand as the first charge: once.
    await bill.getByLabel('Service').click()
    await desk.keyboard.type(code)
    await desk.keyboard.press('Enter')
    await bill.getByRole('button', { name: 'Add' }).click()
    await expect(bill.getByText('Not charged yet', { exact: false })).toHaveCount(0)
    await expect(bill.getByRole('row', { name: new RegExp(`Consultation ${code}`) })).toHaveCount(1)

    // Again: the desk is asked, and Cancel charges nothing.
    await bill.getByLabel('Service').click()
    await desk.keyboard.type(code)
    await desk.keyboard.press('Enter')
    await bill.getByRole('button', { name: 'Add' }).click()
    const ask = desk.getByRole('alertdialog', { name: 'Already on this bill' })
    await expect(ask).toContainText(`Consultation ${code} is on this bill already.`)
    await ask.getByRole('button', { name: 'Cancel' }).click()
    await expect(bill.getByRole('row', { name: new RegExp(`Consultation ${code}`) })).toHaveCount(1)
  } finally {
    const now = (await (await api(admin, 'get', '/api/fees/settings')).json()) as { version: number }
    await api(admin, 'put', '/api/fees/settings', { currency: before.currency, consultation: before.consultation, version: now.version })
  }
})
