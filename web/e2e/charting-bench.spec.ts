import { expect, test, type Locator, type Page } from '@playwright/test'
import { api, day, doctorId, login, newPatient, unique } from './helpers'

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
  async press(target: Locator, key: string) {
    this.keys++
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

  await login(page, 'doctor')
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
  await expect(page.locator('.ant-select-item-option-active', { hasText: 'I10' })).toBeVisible()
  await a.press(page.getByLabel('Code').first(), 'Enter')

  // One test.
  await a.click(page.getByRole('button', { name: 'Add order' }))
  await a.type(page.getByRole('combobox', { name: 'Test' }).first(), 'Lipid')
  await a.pick('Lipid panel')

  // The plan and the follow-up.
  await a.type(page.getByLabel('Plan / remarks'), 'Continue amlodipine and losartan. Low-salt diet, walk 30 minutes a day. Lipid panel before the next visit.')
  await a.type(page.getByLabel('Follow-up date'), day(28))
  await a.press(page.getByLabel('Follow-up date'), 'Enter')
  await expect(page.getByRole('status')).toContainText('Saved at')

  // Two medicines.
  await a.click(page.getByRole('button', { name: 'New prescription' }))
  const line = (n: number) => page.getByTestId('rx-line').nth(n)
  const medicine = async (n: number, query: string, option: string, dose: string, frequency: string) => {
    await a.type(line(n).getByRole('combobox', { name: 'Medicine' }), query)
    await a.pick(option)
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
  await a.click(page.getByRole('dialog').getByRole('button', { name: 'Sign' }))
  await expect(page.getByText('Signed by E2E doctor')).toBeVisible()
  const seconds = (Date.now() - started) / 1000

  const visit = (await (await api(page, 'get', `/api/appointments/${appointment.id}/visit`)).json()) as { diagnoses: { code: string }[]; orders: { code: string }[] }
  expect(visit.diagnoses.map((d) => d.code)).toEqual(['I10'])
  expect(visit.orders.map((o) => o.code)).toEqual(['LIPID'])
  const result = { clicks: a.clicks, keystrokes: a.keys, actions: a.clicks + a.keys, seconds: Math.round(seconds * 10) / 10 }
  console.log(`CHARTING ${JSON.stringify(result)}`)
})
