import { expect, test } from '@playwright/test'
import { activeView, api, doctorId, login, newPatient, unique } from './helpers'

test('a booking made by the receptionist appears in the doctor\'s open queue without reload', async ({ browser }) => {
  const theirs = await browser.newContext()
  const doctor = await theirs.newPage()
  const heard: string[] = []
  doctor.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await login(doctor, 'doctor')
  await doctor.goto('/appointments/appointments')
  await expect.poll(() => doctor.evaluate(() => document.documentElement.dataset.push)).toBe('connected')

  const ours = await browser.newContext()
  const rec = await ours.newPage()
  await login(rec, 'receptionist')
  const last = `Live${unique()}`
  const patient = await newPatient(rec, last)
  const startsAt = new Date()
  startsAt.setHours(21, 5 * Math.floor(Math.random() * 12), 0, 0)
  const r = await api(rec, 'post', '/api/appointments', { patient_id: patient.id, doctor_id: await doctorId(rec), starts_at: startsAt.toISOString(), duration_minutes: 5, type: 'new', reason: 'Live update' })
  expect(r.status()).toBe(201)

  // The event arrives on the doctor's socket, and the queue re-reads itself (well before its
  // 30-second poll).
  await expect.poll(() => heard.some((f) => f.includes('App.Events.AppointmentChanged'))).toBe(true)
  await expect(activeView(doctor).getByText(last).first()).toBeVisible({ timeout: 5_000 })
  await ours.close()
  await theirs.close()
})
