import { expect, test, type Locator, type Page } from '@playwright/test'
import { activeView, api, day, doctorId, authenticate, login, newPatient, unique } from './helpers'

// How much a doctor does to chart a routine hypertension follow-up (vitals, complaint,
// examination, diagnosis, two medicines, one test, a follow-up, signed): every click and
// keystroke a person would make, and the time from opening the visit to its signature.
// A measurement, not a test: `bench/charting.sh` runs it (EMR_BENCH=1) and writes the figures
// to bench/CHARTING-RESULTS.md; the normal test run leaves it out (playwright.config.ts).

/** Counts a person's actions: a click, a keystroke (each character typed, each key pressed). */
class Actions {
  clicks = 0
  keys = 0
  constructor(private page: Page) {}
  async click(target: Locator) {
    this.clicks++
    await target.click()
  }
  /** Clicks into a field and types text as a person does, key by key. */
  async type(target: Locator, text: string) {
    await this.click(target)
    await target.pressSequentially(text)
    this.keys += [...text].length
  }
  /** Presses a key or a chord (Alt+O is two keys). */
  async press(target: Locator, key: string) {
    this.keys += key.split('+').length
    await target.press(key)
  }
  /** Picks the option of an open list that shows text. */
  async pick(text: string) {
    await this.click(this.page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first())
  }
}

test('charting a hypertension follow-up: clicks, keystrokes and time to sign', async ({ page }) => {
  test.setTimeout(300_000)
  // Not counted: the front desk registered the patient, booked and marked the arrival.
  await login(page, 'receptionist')
  const last = `Bench${unique()}`
  const patient = await newPatient(page, last)
  const startsAt = new Date(`${day(0)}T16:00:00`)
  startsAt.setMinutes(Math.floor(Math.random() * 50))
  const booked = await api(page, 'post', '/api/appointments', { patient_id: patient.id, doctor_id: await doctorId(page), starts_at: startsAt.toISOString(), duration_minutes: 10, type: 'follow-up' })
  expect(booked.status()).toBe(201)
  const appointment = ((await booked.json()) as { id: number; version: number })
  expect((await api(page, 'post', `/api/appointments/${appointment.id}/arrive`, { version: appointment.version })).status()).toBe(200)
  await page.context().clearCookies()

  await authenticate(page, 'doctor')
  await page.goto('/appointments/appointments')
  const a = new Actions(page)
  const started = Date.now()
  await a.click(page.getByRole('row').filter({ hasText: last }).getByRole('button', { name: 'Start visit' }))
  await expect(page).toHaveURL(`/appointments/form/${appointment.id}`)

  // Vitals, complaint, examination.
  await a.type(page.getByLabel('BP systolic'), '138')
  await a.type(page.getByLabel('BP diastolic'), '86')
  await a.type(page.getByLabel('Heart rate'), '72')
  await a.type(page.getByLabel('Weight'), '78')
  await a.type(page.getByLabel('Chief complaint'), 'Hypertension follow-up. No headache, chest pain or dyspnoea. Taking medicines daily.')
  await a.type(page.getByLabel('Physical examination'), 'Heart sounds regular, no murmurs. Lungs clear. No ankle oedema.')

  // The diagnosis, by its code.
  await a.click(page.getByRole('button', { name: 'Add diagnosis' }))
  const found = page.waitForResponse((r) => r.url().includes('/api/diagnosis-codes') && r.url().includes('q=I10'))
  await a.type(page.getByLabel('Code').first(), 'I10')
  await found
  await expect(page.getByRole('option', { name: /I10/, selected: true })).toBeVisible()
  await a.press(page.getByLabel('Code').first(), 'Enter')

  // One test.
  await a.click(page.getByRole('button', { name: 'Add order' }))
  await a.type(page.getByRole('combobox', { name: 'Test' }).first(), 'Lipid')
  await a.pick('Lipid panel')

  // The plan and the follow-up.
  await a.type(page.getByLabel('Plan / remarks'), 'Continue amlodipine and losartan. Low-salt diet, walk 30 minutes a day. Lipid panel before the next visit.')
  await a.type(page.getByLabel('Follow-up date'), day(28))
  await a.press(page.getByLabel('Follow-up date'), 'Enter')
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')

  // Two medicines.
  await a.click(page.getByRole('button', { name: 'New prescription' }))
  const line = (n: number) => page.getByTestId('rx-line').nth(n)
  const medicine = async (n: number, query: string, option: string, dose: string, frequency: string) => {
    await a.type(line(n).getByRole('combobox', { name: 'Medicine' }), query)
    await a.click(line(n).getByRole('option', { name: option }).first())
    await a.type(line(n).getByLabel('Dose'), dose)
    await a.type(line(n).getByLabel('Frequency'), frequency)
    await a.type(line(n).getByLabel('Duration'), '30 days')
    await a.type(line(n).getByLabel('Quantity'), '30')
  }
  await medicine(0, 'amlodipine 5', 'Amlodipine 5 mg', '1 tablet', 'once a day, morning')
  await a.click(page.getByRole('button', { name: 'Add medicine' }))
  await medicine(1, 'losartan 50', 'Losartan 50 mg', '1 tablet', 'once a day, morning')
  await a.click(page.getByRole('button', { name: 'Save and preview' }))
  await expect(page.getByTestId('rx-sheet')).toContainText('Losartan')
  await a.click(page.getByRole('button', { name: 'Back' }))
  await expect(page).toHaveURL(`/appointments/form/${appointment.id}`)

  // Signed.
  await a.click(page.getByRole('button', { name: 'Sign', exact: true }))
  await a.click(page.getByRole('alertdialog').getByRole('button', { name: 'Sign' }))
  await expect(page.getByText('Signed by E2E doctor')).toBeVisible()
  const seconds = (Date.now() - started) / 1000

  const visit = (await (await api(page, 'get', `/api/appointments/${appointment.id}/visit`)).json()) as { diagnoses: { code: string }[]; orders: { code: string }[] }
  expect(visit.diagnoses.map((d) => d.code)).toEqual(['I10'])
  expect(visit.orders.map((o) => o.code)).toEqual(['LIPID'])
  const result = { way: 'typed', clicks: a.clicks, keystrokes: a.keys, actions: a.clicks + a.keys, seconds: Math.round(seconds * 10) / 10 }
  console.log(`CHARTING ${JSON.stringify(result)}`)
})

// The same visit with the charting aids: the doctor's own order set (saved once from an
// earlier visit of this kind: I10, a lipid panel, the plan, a follow-up in four weeks,
// amlodipine and losartan) and snippets for the complaint and the examination, typed from the
// keyboard. Making the set and the snippet is not counted (done once, used at every visit).
test('charting the same follow-up with an order set, snippets and the keyboard', async ({ page }) => {
  test.setTimeout(300_000)
  await login(page, 'receptionist')
  const last = `Bench${unique()}`
  const patient = await newPatient(page, last)
  const startsAt = new Date(`${day(0)}T17:00:00`)
  startsAt.setMinutes(Math.floor(Math.random() * 50))
  const booked = await api(page, 'post', '/api/appointments', { patient_id: patient.id, doctor_id: await doctorId(page), starts_at: startsAt.toISOString(), duration_minutes: 10, type: 'follow-up' })
  expect(booked.status()).toBe(201)
  const appointment = (await booked.json()) as { id: number; version: number }
  expect((await api(page, 'post', `/api/appointments/${appointment.id}/arrive`, { version: appointment.version })).status()).toBe(200)
  await page.context().clearCookies()

  await authenticate(page, 'doctor')
  const setName = `My HTN review ${unique()}`
  const medicine = async (q: string) => ((await (await api(page, 'get', `/api/medicines?q=${encodeURIComponent(q)}`)).json()) as { data: { id: number; label: string; unit_label: string }[] }).data[0]
  const line = (m: { id: number; label: string; unit_label: string }) => ({ medicine_id: m.id, medicine: m.label, dose: '1 tablet', route: 'oral', frequency: 'once a day, morning', duration: '30 days', quantity: '30', unit: m.unit_label, refills: 0, instructions: '', override_reason: '', overrides: [] })
  const made = await api(page, 'post', '/api/order-sets', {
    name: setName, scope: 'personal', language: '', version: 0,
    content: {
      diagnoses: [{ code: 'I10', text: '', primary: true }], orders: [{ code: 'LIPID', note: '' }],
      items: [line(await medicine('amlodipine 5')), line(await medicine('losartan 50'))],
      plan: 'Continue amlodipine and losartan. Low-salt diet, walk 30 minutes a day. Lipid panel before the next visit.', follow_up_days: 28,
    },
  })
  expect(made.status()).toBe(201)
  const shortcut = `;fu${unique().slice(0, 3)}`
  const snippet = await api(page, 'post', '/api/snippets', { scope: 'personal', section: 'complaint', shortcut, language: '', body: 'Hypertension follow-up. No headache, chest pain or dyspnoea. Taking medicines daily.', version: 0 })
  expect(snippet.status()).toBe(201)

  await page.goto('/appointments/appointments')
  const a = new Actions(page)
  const started = Date.now()
  await a.click(page.getByRole('row').filter({ hasText: last }).getByRole('button', { name: 'Start visit' }))
  await expect(page).toHaveURL(`/appointments/form/${appointment.id}`)
  const view = activeView(page)

  // Vitals from the keyboard: Tab from field to field.
  const systolic = view.getByLabel('BP systolic')
  await a.type(systolic, '138')
  for (const [key, text] of [['Tab', '86'], ['Tab', '72'], ['Tab', ''], ['Tab', ''], ['Tab', ''], ['Tab', '78']] as const) {
    await a.press(page.locator(':focus'), key)
    if (text) {
      await page.locator(':focus').pressSequentially(text)
      a.keys += text.length
    }
  }
  await expect(view.getByLabel('Weight')).toHaveValue('78')

  // The complaint and the examination, each a snippet.
  const complaint = view.getByLabel('Chief complaint')
  await a.type(complaint, shortcut)
  await a.press(complaint, 'Space')
  await expect(complaint).toHaveValue(/^Hypertension follow-up/)
  const exam = view.getByLabel('Physical examination')
  await a.type(exam, ';ntd')
  await a.press(exam, 'Space')
  await expect(exam).toHaveValue(/BP 138\/86 mmHg/)

  // The set: Alt+O, its name, Enter, then apply.
  await a.press(exam, 'Alt+o')
  const combo = page.getByRole('dialog').getByRole('combobox', { name: 'Order set' })
  await expect(combo).toBeFocused()
  await combo.pressSequentially('my htn')
  a.keys += 'my htn'.length
  // The option Enter takes is the active one (the light select with search marks it selected).
  await expect(page.getByRole('dialog').getByRole('option', { name: setName, selected: true })).toBeVisible()
  await a.press(combo, 'Enter')
  await expect(page.getByRole('dialog').getByTestId('set-line')).toHaveCount(2)
  await a.click(page.getByRole('dialog').getByRole('button', { name: /^Apply \d+ items$/ }))
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(view.getByLabel('Plan / remarks')).toHaveValue(/Lipid panel before the next visit/)

  // Signed from the keyboard.
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')
  await a.press(page.locator('body'), 'Alt+s')
  const sign = page.getByRole('alertdialog').getByRole('button', { name: 'Sign' })
  await expect(sign).toBeFocused()
  await a.press(sign, 'Enter')
  await expect(view.getByText('Signed by E2E doctor')).toBeVisible()
  const seconds = (Date.now() - started) / 1000

  const visit = (await (await api(page, 'get', `/api/appointments/${appointment.id}/visit`)).json()) as { diagnoses: { code: string }[]; orders: { code: string }[]; follow_up_date: string; vitals: { weight: number } }
  expect(visit.diagnoses.map((d) => d.code)).toEqual(['I10'])
  expect(visit.orders.map((o) => o.code)).toEqual(['LIPID'])
  expect(visit.follow_up_date).toBe(day(28))
  expect(visit.vitals.weight).toBe(78)
  const rxs = (await (await api(page, 'get', `/api/appointments/${appointment.id}/prescriptions`)).json()) as { data: { items: { medicine: string }[] }[] }
  expect(rxs.data.flatMap((r) => r.items.map((i) => i.medicine.split(' ')[0]))).toEqual(['Amlodipine', 'Losartan'])
  const result = { way: 'aids', clicks: a.clicks, keystrokes: a.keys, actions: a.clicks + a.keys, seconds: Math.round(seconds * 10) / 10 }
  console.log(`CHARTING ${JSON.stringify(result)}`)
})
