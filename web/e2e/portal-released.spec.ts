import { expect, test, type Browser } from '@playwright/test'
import { join } from 'node:path'
import { api, bookFirstFree, day, doctorId, login, unique } from './helpers'
import { axe, codesTo } from './mail'

// The portal's Results and Documents (ADR 44, 45): the doctor reviews a panel and issues a
// certificate, which the clinic's default rules release; the patient, on a phone, sees the
// result in plain words and opens the certificate as printed, in English and Vietnamese; axe
// finds nothing serious in either. The sections are photographed (phone, en and vi).

const shots = join('test-results', 'portal-released')

async function staff(browser: Browser, who: string) {
  const page = await (await browser.newContext()).newPage()
  await login(page, who)
  return page
}

test('a patient on a phone sees a released result in plain words and opens a released document as printed, in English and Vietnamese', async ({ browser }) => {
  test.setTimeout(240_000)
  const doc = await staff(browser, 'doctor')
  const desk = await staff(browser, 'receptionist')
  const last = `Released-${unique()}`
  const address = `${last.toLowerCase()}@example.test`
  const r = await api(desk, 'post', '/api/patients', { first_name: 'Lan', last_name: last, birth_date: '1988-04-05', sex: 'female', email: address, history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number }

  // The doctor's visit: a panel ordered, recorded, reviewed; the visit signed; a certificate issued.
  const appt = await bookFirstFree(doc, patient.id, await doctorId(doc), day(0), 8)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  const visit = await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Tired', diagnoses: [{ code: 'J06.9', primary: true }], orders: [{ code: 'BMP', note: '' }] })
  expect(visit.status()).toBe(200)
  const orders = (await (await api(doc, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { id: number; version: number }[] }
  const order = orders.data[0]
  const recorded = await api(doc, 'put', `/api/lab-orders/${order.id}/results`, {
    version: order.version,
    final: true,
    results: [
      { analyte: 'GLU', value: '5.2', unit: 'mmol/L' },
      { analyte: 'K', value: '5.8', unit: 'mmol/L' },
      { analyte: 'CREA', value: '90', unit: 'umol/L' },
    ],
  })
  expect(recorded.status()).toBe(200)
  const after = (await (await api(doc, 'get', `/api/lab-orders/${order.id}`)).json()) as { version: number }
  expect((await api(doc, 'post', '/api/results/review', { orders: [{ id: order.id, version: after.version }] })).status()).toBe(200)
  const signed = (await (await api(doc, 'get', `/api/appointments/${appt}/visit`)).json()) as { version: number }
  expect((await api(doc, 'post', `/api/appointments/${appt}/visit/sign`, { version: signed.version })).status()).toBe(200)
  const templates = (await (await api(doc, 'get', '/api/document-templates?kind=medical_certificate&language=en')).json()) as { data: { id: number }[] }
  const issued = await api(doc, 'post', '/api/documents', { template_id: templates.data[0].id, patient_id: patient.id, appointment_id: appt, fields: { rest_days: '3', rest_from: day(0) } })
  expect(issued.status()).toBe(201)

  // The desk turns the portal on.
  expect((await api(desk, 'post', `/api/patients/${patient.id}/portal/invite`, {})).status()).toBe(200)

  // The patient, on a phone, with the mailed code.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  await context.addInitScript(() => {
    const w = window as unknown as { printed: number; print: () => void }
    w.printed = 0
    w.print = () => void w.printed++
  })
  const phone = await context.newPage()
  await phone.goto('/portal?lang=en')
  const before = codesTo(address).length
  await phone.getByLabel('E-mail address').fill(address)
  await phone.getByRole('button', { name: 'Send the code' }).click()
  await expect.poll(() => codesTo(address).length, { timeout: 30_000 }).toBeGreaterThan(before)
  await phone.getByLabel('6-digit code').fill(codesTo(address).at(-1)!)
  await phone.getByRole('button', { name: 'Sign in' }).click()
  await expect(phone.getByRole('heading', { name: 'Appointments' })).toBeVisible()

  // Results: the panel, its values on asking, potassium above the usual range.
  await phone.getByRole('button', { name: 'Results', exact: true }).click()
  await expect(phone.getByRole('heading', { name: 'Basic metabolic panel' })).toBeVisible()
  await phone.getByRole('button', { name: 'Show the values' }).click()
  const values = phone.getByRole('table')
  const k = values.getByRole('row').filter({ has: phone.getByRole('rowheader', { name: 'Potassium' }) })
  await expect(k).toContainText('5.8 mmol/L')
  await expect(k).toContainText('above the usual range')
  await expect(k).toContainText('3.5–5.1')
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: join(shots, 'results-en.png'), fullPage: true })

  // Documents: the certificate, opened as printed, with Print and its hint.
  await phone.getByRole('button', { name: 'Documents', exact: true }).click()
  await phone.getByRole('button', { name: 'Open: Medical certificate' }).click()
  const sheet = phone.getByRole('article', { name: 'Medical certificate' })
  await expect(sheet).toBeFocused()
  await expect(sheet.getByRole('heading', { name: 'Medical certificate' })).toBeVisible()
  await expect(sheet).toContainText(last)
  await expect(phone.getByText(/Save as PDF/)).toBeVisible()
  await phone.getByRole('button', { name: 'Print' }).click()
  expect(await phone.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: join(shots, 'document-en.png'), fullPage: true })

  // The desk's chart shows the patient opened both.
  const seen = (await (await api(doc, 'get', `/api/patients/${patient.id}/release`)).json()) as { data: { kind: string; openings: { count: number } }[] }
  expect(seen.data.filter((s) => s.openings.count > 0).map((s) => s.kind).sort()).toEqual(['document', 'result'])

  // In Vietnamese: the same sections, the starter certificate's title in Vietnamese.
  await phone.getByRole('button', { name: 'Back to the list' }).click()
  await expect(phone.getByRole('button', { name: 'Open: Medical certificate' })).toBeFocused()
  await phone.getByRole('combobox', { name: 'Language' }).selectOption('vi')
  await expect(phone.getByRole('heading', { name: 'Giấy tờ', level: 2 })).toBeVisible()
  await expect(phone.getByRole('heading', { name: 'Giấy xác nhận khám bệnh' })).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: join(shots, 'documents-vi.png'), fullPage: true })
  await phone.getByRole('button', { name: 'Mở: Giấy xác nhận khám bệnh' }).click()
  await expect(phone.getByRole('button', { name: 'In', exact: true })).toBeVisible()
  await phone.screenshot({ path: join(shots, 'document-vi.png'), fullPage: true })
  await phone.getByRole('button', { name: 'Quay lại danh sách' }).click()
  await phone.getByRole('button', { name: 'Kết quả', exact: true }).click()
  await phone.getByRole('button', { name: 'Xem các chỉ số' }).click()
  await expect(phone.getByRole('table').getByRole('row').filter({ hasText: 'Kali' })).toContainText('5,8 mmol/L cao hơn giới hạn bình thường')
  expect(await axe(phone)).toEqual([])
  await phone.screenshot({ path: join(shots, 'results-vi.png'), fullPage: true })
  await context.close()
})
