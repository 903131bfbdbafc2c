import { expect, test, type Page } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, authenticate, login, logout, newPatient, unique } from './helpers'

/** Books through the booking form: patient by search, the E2E doctor, a date and time. */
async function bookThroughForm(page: Page, last: string, date: string, time: string) {
  await page.getByRole('button', { name: 'Book appointment' }).click()
  const dialog = page.getByRole('dialog', { name: 'Book an appointment' })
  await dialog.getByLabel('Patient').fill(last)
  await page.getByRole('option').filter({ hasText: last }).click()
  await dialog.getByLabel('Doctor').selectOption({ label: 'E2E doctor' })
  await dialog.getByLabel('Date').fill(date)
  await dialog.getByLabel('Date').press('Enter')
  // The time is a combobox of the day's times (HH:mm): typed, then the first match taken with Enter.
  await dialog.getByRole('combobox', { name: 'Time' }).fill(time)
  await dialog.getByRole('combobox', { name: 'Time' }).press('Enter')
  await dialog.getByLabel('Reason').fill('Sore throat')
  await dialog.getByRole('button', { name: 'Book appointment' }).click()
  return dialog
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

test('book → arrive → vitals → start → coded diagnosis → sign → amend, with a follow-up and no double booking', async ({ page }) => {
  test.setTimeout(180_000) // four logins and a whole visit
  const last = `Phạm-${unique()}`
  const other = `Lý-${unique()}`
  await authenticate(page, 'receptionist')
  const patient = await newPatient(page, last)
  await newPatient(page, other)
  const today = day(0)

  await page.goto('/appointments/appointments')
  await expect(page).toHaveTitle('Appointments - EMR')
  const dialog = await bookThroughForm(page, last, today, '10:00')
  await expect(dialog).toBeHidden()
  await expect(row(page, last).getByText('Booked')).toBeVisible()

  // The same doctor at an overlapping time: refused with a message, nothing booked.
  const second = await bookThroughForm(page, other, today, '10:05')
  await expect(second.getByRole('alert')).toContainText('E2E doctor already has an appointment from')
  await second.getByRole('button', { name: 'Cancel' }).click()
  await expect(row(page, other)).toHaveCount(0)

  await row(page, last).getByRole('button', { name: 'Arrived' }).click()
  await expect(row(page, last).getByText('Arrived', { exact: true })).toBeVisible()
  // The front desk never sees the diagnosis form, in the menu or by address, nor through the API.
  await expect(row(page, last).getByRole('button', { name: 'Diagnosis' })).toHaveCount(0)
  const queue = await (await api(page, 'get', `/api/appointments?date=${today}`)).json()
  const appointmentId = (queue.data as { id: number; patient_id: number }[]).find((a) => a.patient_id === patient.id)!.id
  expect((await api(page, 'get', `/api/appointments/${appointmentId}/visit`)).status()).toBe(403)
  await page.goto(`/appointments/form/${appointmentId}`)
  await expect(page.getByText('You do not have access to this page')).toBeVisible()
  await logout(page, 'E2E receptionist')

  // The nurse records the vitals.
  await authenticate(page, 'nurse')
  await page.goto(`/appointments/appointments?date=${today}`)
  await row(page, last).getByRole('button', { name: 'Vitals' }).click()
  await expect(page).toHaveURL(`/appointments/form/${appointmentId}`)
  await page.getByLabel('BP systolic').fill('128')
  await page.getByLabel('BP diastolic').fill('84')
  await page.getByLabel('Weight').fill('70')
  await page.getByLabel('Height').fill('175')
  await expect(page.getByLabel('BMI')).toContainText('22.9')
  await page.getByLabel('Temperature').fill('52')
  await expect(page.getByText('Temperature must be from 30 to 45 °C.')).toBeVisible()
  await page.getByLabel('Temperature').fill('37.2')
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')
  await expect(page.getByLabel('Chief complaint')).toBeDisabled()
  await logout(page, 'E2E nurse')

  // The doctor starts the visit, sees the vitals, and writes a coded diagnosis.
  await authenticate(page, 'doctor')
  await page.goto(`/appointments/appointments?date=${today}`)
  await row(page, last).getByRole('button', { name: 'Start visit' }).click()
  await expect(page).toHaveURL(`/appointments/form/${appointmentId}`)
  await expect(page.getByLabel('BP systolic')).toHaveValue('128')
  await page.getByLabel('Chief complaint').fill('Sore throat')
  await page.getByRole('button', { name: 'Add diagnosis' }).click()
  // The list opens with common codes; pick what the search finds (the first, with Enter).
  const found = page.waitForResponse((r) => r.url().includes('/api/diagnosis-codes') && r.url().includes('q=pharyng'))
  await page.getByLabel('Code').first().fill('pharyng')
  await found
  await expect(page.getByRole('option', { name: /J02\.9/, selected: true })).toBeVisible()
  await page.getByLabel('Code').first().press('Enter')
  await expect(page.getByRole('combobox', { name: 'Code' }).first()).toHaveValue(/J02\.9/)
  await expect(page.getByRole('checkbox', { name: 'Primary' })).toBeChecked()
  const followUp = day(7)
  await page.getByLabel('Follow-up date').fill(followUp)
  await page.getByLabel('Follow-up date').press('Enter')
  await expect(page.getByText(`Follow-up booked for ${followUp} 10:00`)).toBeVisible()
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')

  await page.getByRole('button', { name: 'Sign', exact: true }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByText('Signed by E2E doctor')).toBeVisible()
  await expect(page.getByLabel('Chief complaint')).toBeDisabled()

  // An amendment keeps the signed version visible.
  await page.getByRole('button', { name: 'Amend' }).click()
  await page.getByLabel('Chief complaint').fill('Sore throat for three days')
  await page.getByRole('button', { name: 'Save amendment' }).click()
  await page.getByLabel('Reason for the amendment (required)').fill('Duration told by phone')
  await page.getByRole('dialog').getByRole('button', { name: 'Save amendment' }).click()
  await expect(page.getByText('Amended ×1')).toBeVisible()
  const before = page.getByRole('group').filter({ hasText: 'Duration told by phone' })
  await before.getByText('Duration told by phone').click()
  await expect(before.getByText('Before the amendment')).toBeVisible()
  await expect(before.getByText('Sore throat', { exact: true })).toBeVisible()

  // The follow-up stands in that day's queue; the chart lists the visit with its diagnosis.
  await page.goto(`/appointments/appointments?date=${followUp}`)
  await expect(row(page, last).getByText('Follow-up')).toBeVisible()
  await page.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  await expect(page.getByText('J02.9 Acute pharyngitis, unspecified (primary)')).toBeVisible()
})

test('the queue order persists', async ({ page }) => {
  await authenticate(page, 'receptionist')
  const doctor = await doctorId(page)
  const date = day(3)
  const names: string[] = []
  for (const [i, clock] of ['09:00', '09:30', '10:00'].entries()) {
    const name = `Queue${i}-${unique()}`
    names.push(name)
    const p = await newPatient(page, name)
    const startsAt = new Date(`${date}T${clock}:00`).toISOString()
    expect((await api(page, 'post', '/api/appointments', { patient_id: p.id, doctor_id: doctor, starts_at: startsAt, duration_minutes: 15, type: 'new' })).status()).toBe(201)
  }
  await page.goto(`/appointments/appointments?date=${date}&doctor=${doctor}`)
  await expect(page.getByRole('row').nth(1)).toContainText(names[0])
  await page.getByRole('button', { name: 'Move number 3 up' }).click()
  await expect(page.getByText('Queue order saved')).toBeVisible()
  await page.reload()
  const rows = page.getByRole('row')
  await expect(rows.nth(1)).toContainText(names[0])
  await expect(rows.nth(2)).toContainText(names[2])
  await expect(rows.nth(3)).toContainText(names[1])

  // The week calendar shows the same appointments.
  await page.getByText('Week', { exact: true }).click()
  // A time grid: the hours down the side, the whole name in the day's column.
  const week = page.getByRole('table', { name: 'Week' })
  await expect(week.getByRole('rowheader', { name: '10:00' })).toBeVisible()
  await expect(week.getByRole('link', { name: names[2] })).toBeVisible()
})

test('a stale autosave is refused, nothing typed is lost, and both changes end up saved', async ({ page }) => {
  await authenticate(page, 'doctor')
  const p = await newPatient(page, `Đỗ-${unique()}`)
  const startsAt = new Date(`${day(0)}T07:00:00`).toISOString()
  const a = await (await api(page, 'post', '/api/appointments', { patient_id: p.id, doctor_id: await doctorId(page), starts_at: startsAt, duration_minutes: 10, type: 'walk-in' })).json()
  expect((await api(page, 'post', `/api/appointments/${a.id}/arrive`, {})).status()).toBe(200)
  expect((await api(page, 'post', `/api/appointments/${a.id}/start`, {})).status()).toBe(200)
  await page.goto(`/appointments/form/${a.id}`)
  await page.getByLabel('Chief complaint').fill('Dizzy since morning')
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')

  // Meanwhile a nurse saves the vitals (version 1 → 2).
  const saved = await (await api(page, 'get', `/api/appointments/${a.id}/visit`)).json()
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  const r = await page.request.put(`/api/appointments/${a.id}/visit/vitals`, { data: { version: saved.version, vitals: { bp_systolic: 150, bp_diastolic: 95 } }, headers: { 'X-XSRF-TOKEN': xsrf } })
  expect(r.status()).toBe(200)

  await page.getByLabel('Physical examination').fill('Nystagmus to the left')
  await expect(page.getByRole('alert').filter({ hasText: 'Someone else saved this visit' })).toBeVisible()
  await expect(page.getByLabel('Physical examination')).toHaveValue('Nystagmus to the left')
  await page.getByRole('button', { name: 'Load their version and keep my changes' }).click()
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')
  await expect(page.getByLabel('BP systolic')).toHaveValue('150')
  const after = await (await api(page, 'get', `/api/appointments/${a.id}/visit`)).json()
  expect(after.examination).toBe('Nystagmus to the left')
  expect(after.chief_complaint).toBe('Dizzy since morning')
  expect(after.vitals.bp_systolic).toBe(150)
})

test("the nurse's visit page asks the server for nothing her role may not read", async ({ page }) => {
  // A visit the doctor has begun: a diagnosis and an ordered test, which the nurse sees.
  await login(page, 'doctor')
  const patient = await newPatient(page, `Đỗ-${unique()}`)
  const id = await bookFirstFree(page, patient.id, await doctorId(page), day(1), 6)
  expect((await api(page, 'post', `/api/appointments/${id}/arrive`, {})).status()).toBe(200)
  expect((await api(page, 'post', `/api/appointments/${id}/start`, {})).status()).toBe(200)
  const saved = await api(page, 'put', `/api/appointments/${id}/visit`, { version: 0, chief_complaint: 'Cough', diagnoses: [{ code: 'J06.9', primary: true }], orders: [{ code: 'CBC', note: '' }] })
  expect(saved.status()).toBe(200)
  await logout(page, 'E2E doctor')

  await authenticate(page, 'nurse')
  const refused: string[] = []
  page.on('response', (r) => {
    if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`)
  })
  await page.goto(`/appointments/form/${id}`)
  await expect(page.getByLabel('BP systolic')).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Code' }).first()).toHaveValue(/J06\.9/)
  await page.waitForLoadState('networkidle')
  expect(refused).toEqual([])
})

// Clinic-day review, m1: at 1366×768 the queue's every column, Actions included, is in view
// without scrolling sideways, with long reasons and the desk's buttons (arrive, bill, more),
// in English and in the longer Russian and Vietnamese.
test('the queue fits a 1366 px screen', async ({ page, context }) => {
  await page.setViewportSize({ width: 1366, height: 768 })
  await authenticate(page, 'receptionist')
  const date = day(3)
  const doctor = await doctorId(page)
  for (const [i, reason] of ['Follow-up of diabetes, medication review and foot examination', 'Persistent cough and fever for five days'].entries()) {
    const patient = await newPatient(page, `Queue-Fits-Longername-${unique()}`)
    // The first free slots of the day: other tests book on the same days.
    const id = await bookFirstFree(page, patient.id, doctor, date, 8, 'new', { reason, duration_minutes: 20 })
    if (i === 1) expect((await api(page, 'post', `/api/appointments/${id}/arrive`, {})).status()).toBe(200)
  }
  for (const [lang, actions] of [['en', 'Actions'], ['ru', 'Действия'], ['vi', 'Thao tác']]) {
    await context.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
    await page.goto(`/appointments/appointments?date=${date}`)
    const header = page.getByRole('columnheader', { name: actions, exact: true })
    await expect(page.getByRole('row').filter({ hasText: 'Persistent cough' }).getByRole('button').first()).toBeVisible()
    const box = await header.boundingBox()
    expect(box, `${lang}: the Actions header is laid out`).not.toBeNull()
    expect(box!.x + box!.width, `${lang}: the Actions header ends within the screen`).toBeLessThanOrEqual(1366)
    const more = page.getByRole('row').filter({ hasText: 'Persistent cough' }).getByRole('button').last()
    const end = await more.boundingBox()
    expect(end!.x + end!.width, `${lang}: the row's last button ends within the screen`).toBeLessThanOrEqual(1366)
  }
})
