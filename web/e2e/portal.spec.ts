import { expect, test } from '@playwright/test'
import { api, bookFirstFree, day, doctorId, authenticate, login, unique } from './helpers'
import { axe, codesTo } from './mail'
import { TEXTS } from '../src/portal/texts'

test('the desk invites, the patient signs in on a phone with the mailed code, moves and cancels, and changes reminders; an access code signs in too', async ({ page, browser }) => {
  test.setTimeout(240_000)
  // The clinic publishes the E2E doctor's hours online (new patients, 30 minutes): what a
  // patient may move a visit to. The administrator in a page of her own: a second login on one
  // page races the first session's end, which the open app hears and answers with the login page.
  const admin = await browser.newPage()
  await authenticate(admin, 'admin')
  const current = (await (await api(admin, 'get', '/api/settings/online-booking')).json()) as { version: number }
  const week = Array.from({ length: 7 }, () => ({ open: '08:00', close: '17:00', breaks: [{ from: '12:00', to: '13:00' }] }))
  const published = await api(admin, 'put', '/api/settings/online-booking', {
    enabled: true, auto_book: false, ahead_days: 30, notice_minutes: 120, holidays: [], version: current.version,
    doctors: [{ doctor_id: await doctorId(admin), enabled: true, specialty: 'Family medicine', offers: [{ type: 'new', slot_minutes: 30 }], week, days_off: [] }],
  })
  expect(published.status(), await published.text()).toBe(200)
  await admin.close()
  await authenticate(page, 'receptionist')
  const last = `Portal-${unique()}`
  const address = `${last.toLowerCase()}@example.test`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Lan', last_name: last, birth_date: '1990-02-03', sex: 'female', email: address, history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number; mrn: string }
  await bookFirstFree(page, patient.id, await doctorId(page), day(3), 9)

  // The desk turns the portal on from the chart: the access code is shown once.
  await page.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = page.getByTestId('portal-access')
  await card.getByRole('button', { name: 'Invite to the portal' }).click()
  const dialog = page.getByRole('dialog', { name: 'Access code for the patient portal' })
  await expect(dialog.getByText(/printed on their visit summaries/)).toBeVisible()
  const accessCode = (await dialog.locator('[aria-label^="Access code"]').first().innerText()).trim()
  expect(accessCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(card.getByText('On', { exact: true })).toBeVisible()

  // The patient, on a phone, signed in nowhere.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const phone = await context.newPage()
  await phone.goto('/portal?lang=ru')
  await expect(phone.getByRole('heading', { name: 'Вход' })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.getByRole('combobox', { name: 'Язык' }).selectOption('en')
  await expect(phone.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  const before = codesTo(address).length
  await phone.getByLabel('E-mail address').fill(address)
  await phone.getByRole('button', { name: 'Send the code' }).click()
  await expect(phone.getByText(/a 6-digit code is on its way/)).toBeVisible()
  await expect.poll(() => codesTo(address).length, { timeout: 30_000 }).toBeGreaterThan(before)
  await phone.getByLabel('6-digit code').fill(codesTo(address).at(-1)!)
  await phone.getByRole('button', { name: 'Sign in' }).click()

  // The appointment, moved to the next day's first free time, then cancelled after asking.
  await expect(phone.getByRole('heading', { name: 'Appointments' })).toBeVisible()
  await expect(phone.getByText('E2E doctor', { exact: false })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.getByRole('button', { name: 'Change time' }).click()
  const moving = phone.getByRole('group', { name: 'Choose a new time' })
  await moving.getByRole('button', { name: 'Day after' }).click()
  await expect(moving.getByRole('group', { name: /^Free times on/ })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  const first = moving.getByRole('radio').first()
  const time = (await first.locator('xpath=..').innerText()).trim()
  await first.check()
  await moving.getByRole('button', { name: new RegExp(`^Move to .*${time}$`) }).click()
  await expect(phone.getByText(new RegExp(`^The appointment is moved to .*${time}\\.$`))).toBeVisible()
  const moved = (await (await api(page, 'get', `/api/appointments?patient_id=${patient.id}&per_page=10`)).json()) as { data: { starts_at: string; duration_minutes: number }[] }
  expect(moved.data.map((a) => [a.starts_at.slice(0, 10), a.duration_minutes])).toEqual([[day(4), 10]])
  await phone.getByRole('button', { name: 'Cancel this appointment' }).click()
  await phone.getByRole('group', { name: 'Cancel this appointment?' }).getByRole('button', { name: 'Yes, cancel it' }).click()
  await expect(phone.getByText('The appointment is cancelled.')).toBeVisible()
  await expect(phone.getByText('Cancelled', { exact: true })).toBeVisible()

  // Reminders by nothing, saved through the register.
  await phone.getByRole('button', { name: 'Contact and reminders' }).click()
  await phone.getByRole('radio', { name: 'No reminders' }).check()
  await phone.getByRole('button', { name: 'Save' }).click()
  await expect(phone.getByText('Saved.')).toBeVisible()
  const saved = (await (await api(page, 'get', `/api/patients/${patient.id}`)).json()) as { reminders: string }
  expect(saved.reminders).toBe('none')
  await phone.getByRole('button', { name: 'Bills and payments' }).click()
  await expect(phone.getByText('You owe nothing.')).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.getByRole('button', { name: 'Sign out' }).click()
  await expect(phone.getByRole('heading', { name: 'Sign in' })).toBeVisible()

  // The access code and the birth date, in Vietnamese.
  await phone.getByRole('combobox', { name: 'Language' }).selectOption('vi')
  await phone.getByRole('button', { name: 'Mã truy cập' }).click()
  await phone.getByLabel('Mã truy cập', { exact: true }).fill(accessCode.toLowerCase())
  await phone.getByLabel('Ngày sinh').fill('1990-02-03')
  await phone.getByRole('button', { name: 'Đăng nhập' }).click()
  await expect(phone.getByRole('heading', { name: 'Lịch hẹn' })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  // Where the patient is signed in: this phone, by the access code (ASVS 3.3.4).
  await phone.getByRole('button', { name: TEXTS.vi.contact }).click()
  const sessions = phone.getByRole('region', { name: TEXTS.vi.sessionsTitle })
  await expect(sessions.getByText(TEXTS.vi.thisDevice)).toBeVisible()
  await expect(sessions.getByText(TEXTS.vi.byAccessCode)).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await context.close()

  // The desk sees the session, and turning access off ends it.
  await page.reload()
  await card.getByRole('button', { name: 'Turn off access' }).click()
  await page.getByRole('button', { name: 'Turn off access' }).last().click()
  await expect(card.getByText('Off', { exact: true })).toBeVisible()
})

// The cashier's review of 2026-11-29 (ADR 44): on a phone, each bill's rows add up — a
// discount as subtotal, discount and total; total, credited, paid and balance — a credited bill
// reads nothing to pay, money given back to be paid another way reads still owed, and the line
// under the bills says they are not tax invoices; in English and Vietnamese.
test('the portal’s bills add up and say what each refund was', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await login(page, 'admin')
  const last = `Bills-${unique()}`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Lan', last_name: last, birth_date: '1980-04-05', sex: 'female', history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number }
  const invite = await api(page, 'post', `/api/patients/${patient.id}/portal/invite`)
  expect(invite.status()).toBe(200)
  const { code } = (await invite.json()) as { code: string }

  type Bill = { id: number; number: string; version: number; total: number }
  const ok = async (res: Awaited<ReturnType<typeof api>>) => {
    expect(res.status(), await res.text()).toBeLessThan(300)
    return res.json()
  }
  /** A walk-in bill of lines, with the bill's own discount when given, finalised. */
  const issue = async (lines: Record<string, unknown>[], discount?: number) => {
    let b = (await ok(await api(page, 'post', '/api/bills', { patient_id: patient.id }))) as Bill
    for (const l of lines) b = (await ok(await api(page, 'post', `/api/bills/${b.id}/lines`, { quantity: 1, ...l }))) as Bill
    if (discount) b = (await ok(await api(page, 'put', `/api/bills/${b.id}`, { discount_kind: 'percent', discount_value: discount, discount_reason: 'Senior', notes: '', version: b.version }))) as Bill
    return (await ok(await api(page, 'post', `/api/bills/${b.id}/finalise`, { version: b.version }))) as Bill
  }
  const pay = async (b: Bill, amount: number) => ok(await api(page, 'post', `/api/bills/${b.id}/payments`, { method: 'card', amount }))
  const refund = async (b: Bill, amount: number, still_owed: boolean) =>
    ok(await api(page, 'post', `/api/bills/${b.id}/refunds`, { method: 'card', amount, reason: still_owed ? 'Paid by the wrong card' : 'Not given', still_owed }))

  const discounted = await issue(
    [
      { description: 'Ultrasound', unit_price: 6000, discount_kind: 'percent', discount_value: 1000, discount_reason: 'Senior' },
      { description: 'Blood count', unit_price: 2000, quantity: 2 },
    ],
    1000,
  )
  expect(discounted.total).toBe(8460)
  await pay(discounted, 5000)
  const credited = await issue([{ description: 'Dressing', unit_price: 3000 }])
  await pay(credited, 3000)
  await refund(credited, 3000, false)
  const owedAgain = await issue([{ description: 'X-ray', unit_price: 2000 }])
  await pay(owedAgain, 2000)
  await refund(owedAgain, 2000, true)

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const phone = await context.newPage()
  await phone.goto('/portal?lang=en')
  await phone.getByRole('button', { name: 'Access code' }).click()
  await phone.getByLabel('Access code', { exact: true }).fill(code)
  await phone.getByLabel('Date of birth').fill('1980-04-05')
  await phone.getByRole('button', { name: 'Sign in' }).click()
  await phone.getByRole('button', { name: 'Bills and payments' }).click()

  // Money as the page writes it in British English, in the clinic's currency (another test may
  // have set pesos; US$ for a dollar).
  const { currency } = (await (await api(page, 'get', '/api/fees/settings')).json()) as { currency: string }
  const money = (cents: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(cents / 100)
  const bill = (number: string) => phone.getByRole('listitem').filter({ hasText: number })
  const amount = (number: string, label: string) =>
    bill(number).getByRole('row').filter({ has: phone.getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell')
  // 34.60 left on the discounted bill, 20.00 given back to be paid another way: 54.60 in all.
  await expect(phone.getByText(`Balance to pay on all bills: ${money(5460)}`)).toBeVisible()
  await expect(amount(discounted.number, 'Subtotal')).toHaveText(money(9400))
  await expect(amount(discounted.number, 'Discount')).toHaveText(`−${money(940)}`)
  await expect(amount(discounted.number, 'Total')).toHaveText(money(8460))
  await expect(amount(discounted.number, 'Paid (less money given back)')).toHaveText(`−${money(5000)}`)
  await expect(amount(discounted.number, 'Balance to pay')).toHaveText(money(3460))
  await expect(bill(discounted.number).getByText(`after a discount of ${money(600)}`)).toBeVisible()
  await expect(bill(credited.number).getByText('Nothing to pay')).toBeVisible()
  await expect(amount(credited.number, 'Credited (services not given)')).toHaveText(`−${money(3000)}`)
  await expect(amount(credited.number, 'Balance to pay')).toHaveText(money(0))
  await expect(bill(owedAgain.number).getByText('Money given back, still owed: to be paid another way')).toBeVisible()
  await expect(amount(owedAgain.number, 'Balance to pay')).toHaveText(money(2000))
  await expect(phone.getByText(TEXTS.en.notTaxInvoice)).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: test.info().outputPath('portal-bills-en.png'), fullPage: true })

  await phone.getByRole('combobox', { name: 'Language' }).selectOption('vi')
  await expect(phone.getByText(TEXTS.vi.notTaxInvoice)).toBeVisible()
  await expect(bill(owedAgain.number).getByText('Đã hoàn tiền, vẫn phải trả: vui lòng thanh toán bằng cách khác')).toBeVisible()
  await expect(phone.getByText(`Phiếu thanh toán ${credited.number}`)).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: test.info().outputPath('portal-bills-vi.png'), fullPage: true })
  await context.close()
})
