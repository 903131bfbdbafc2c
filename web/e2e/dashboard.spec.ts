import { expect, test } from '@playwright/test'
import { api, doctorId, login, newPatient, unique } from './helpers'

const figure = async (page: import('@playwright/test').Page, id: string) => Number((await page.getByTestId(id).getByRole('definition').innerText()).replace(/\D/g, ''))

test('the dashboard shows the clinic at a glance, and a booking elsewhere changes today\'s figures live', async ({ browser }) => {
  const theirs = await browser.newContext()
  const doctor = await theirs.newPage()
  await login(doctor, 'doctor')
  await expect(doctor).toHaveURL(/\/dashboard$/)
  for (const chart of ['chart-appointments', 'chart-registrations', 'chart-ages']) await expect(doctor.getByTestId(chart)).toBeVisible()
  await expect(doctor.getByText('Top 10 diagnoses this month')).toBeVisible() // a doctor sees diagnosis statistics
  await expect(doctor.getByTestId('figure-mine')).toBeVisible()
  await expect.poll(() => doctor.evaluate(() => document.documentElement.dataset.push)).toBe('connected')
  const before = await figure(doctor, 'figure-today')
  const mineBefore = await figure(doctor, 'figure-mine')

  const ours = await browser.newContext()
  const rec = await ours.newPage()
  await login(rec, 'receptionist')
  const patient = await newPatient(rec, `Glance${unique()}`)
  const startsAt = new Date()
  startsAt.setHours(22, 5 * Math.floor(Math.random() * 12), 0, 0)
  const r = await api(rec, 'post', '/api/appointments', { patient_id: patient.id, doctor_id: await doctorId(rec), starts_at: startsAt.toISOString(), duration_minutes: 5, type: 'new', reason: 'Dashboard' })
  expect(r.status()).toBe(201)

  // Without reload, on the doctor's screen.
  await expect.poll(() => figure(doctor, 'figure-today')).toBe(before + 1)
  await expect.poll(() => figure(doctor, 'figure-mine')).toBe(mineBefore + 1)

  // The card opens the day's queue.
  await doctor.getByTestId('figure-today').click()
  await expect(doctor).toHaveURL(/\/appointments\/appointments\?date=\d{4}-\d{2}-\d{2}$/)
  await ours.close()
  await theirs.close()
})

test('a receptionist sees no diagnosis statistics, and the API refuses them', async ({ page }) => {
  await login(page, 'receptionist')
  await expect(page.getByTestId('chart-appointments')).toBeVisible()
  await expect(page.getByTestId('figure-patients')).toBeVisible()
  await expect(page.getByText('Top 10 diagnoses this month')).toHaveCount(0)
  await expect(page.getByTestId('figure-mine')).toHaveCount(0)
  expect((await api(page, 'get', '/api/dashboard/diagnoses')).status()).toBe(403)
  expect((await api(page, 'get', '/api/dashboard/appointments')).status()).toBe(200)
})

test('a user without any of the figures\' permissions sees only the welcome and the calendar', async ({ page }) => {
  await login(page, 'visitor')
  await expect(page.getByRole('heading', { name: 'Welcome, E2E visitor' })).toBeVisible()
  await expect(page.getByRole('grid', { name: /\d{4}/ })).toBeVisible()
  await expect(page.getByTestId('figure-today')).toHaveCount(0)
  expect((await api(page, 'get', '/api/dashboard/patients')).status()).toBe(403)
})
