import { expect, test } from '@playwright/test'
import { activeView, api, doctorId, authenticate, login, logout, newPatient, sidebar, unique } from './helpers'

test('a booking made by the receptionist appears in the doctor\'s open queue without reload', async ({ browser }) => {
  const theirs = await browser.newContext()
  const doctor = await theirs.newPage()
  const heard: string[] = []
  doctor.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await authenticate(doctor, 'doctor')
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

test('a role change and a deactivation reach the open session without reload', async ({ page, browser }) => {
  await login(page, 'admin')
  const username = `live-${unique()}`
  const created = await api(page, 'post', '/api/users', { username, name: `Live ${username}`, roles: ['doctor'], password: 'a long enough password' })
  expect(created.status()).toBe(201)
  const account = (await created.json()) as { id: number; name: string; version: number }

  const theirs = await browser.newContext()
  const doctor = await theirs.newPage()
  const heard: string[] = []
  doctor.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await login(doctor, username, 'a long enough password')
  const menu = (name: string) => sidebar(doctor).getByRole('menuitem', { name, exact: false })
  await expect(menu('Forms')).toBeVisible()
  await expect.poll(() => heard.some((f) => f.includes('subscription_succeeded') && f.includes(`User.${account.id}`))).toBe(true)

  const change = async (roles: string[], active: boolean, version: number) => {
    const r = await api(page, 'put', `/api/users/${account.id}`, { name: account.name, email: '', roles, active, version })
    expect(r.status()).toBe(200)
    return ((await r.json()) as { version: number }).version
  }
  const version = await change(['nurse'], true, account.version)
  await expect(menu('Forms')).toHaveCount(0)
  await expect(menu('Appointments')).toBeVisible()

  await change(['nurse'], false, version)
  await expect(doctor).toHaveURL(/\/login/)
  await theirs.close()
})

test('when the live connection drops, a quiet indicator shows until it is back', async ({ page }) => {
  // The push socket goes through a route we can cut and restore.
  let allow = true
  const sockets: import('@playwright/test').WebSocketRoute[] = []
  await page.routeWebSocket(/\/app\//, (ws) => {
    if (!allow) {
      void ws.close({ code: 1001, reason: 'test: network down' })
      return
    }
    sockets.push(ws)
    ws.connectToServer()
  })
  await login(page, 'nurse')
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.push)).toBe('connected')
  await expect(page.getByTestId('live-paused')).toHaveCount(0)

  allow = false
  for (const ws of sockets) await ws.close({ code: 1001, reason: 'test: network down' })
  await expect(page.getByTestId('live-paused')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/live-paused.png' }) // for a person to look at

  allow = true
  await expect(page.getByTestId('live-paused')).toHaveCount(0, { timeout: 30_000 })
})

test('an open patient form warns as soon as someone else saves that patient, and keeps what was typed', async ({ browser }) => {
  const ours = await browser.newContext()
  const rec = await ours.newPage()
  const heard: string[] = []
  rec.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await authenticate(rec, 'receptionist')
  const patient = await newPatient(rec, `Edited${unique()}`)
  await rec.goto(`/masterfile/patient_form/${patient.id}`)
  await expect.poll(() => heard.some((f) => f.includes('subscription_succeeded') && f.includes('private-patients'))).toBe(true)
  await rec.getByLabel('Address').fill('7 Hàng Bạc, Hà Nội')

  const theirs = await browser.newContext()
  const admin = await theirs.newPage()
  await login(admin, 'admin')
  const current = (await (await api(admin, 'get', `/api/patients/${patient.id}`)).json()) as Record<string, unknown>
  const saved = await api(admin, 'put', `/api/patients/${patient.id}`, { ...current, phone: '0903 555 111' })
  expect(saved.status()).toBe(200)

  // The warning comes before any save of ours is refused; what we typed stays.
  await expect(rec.getByText('Someone else has just saved this patient.')).toBeVisible()
  await expect(rec.getByLabel('Address')).toHaveValue('7 Hàng Bạc, Hà Nội')
  await rec.getByRole('button', { name: 'Load their version and keep my changes' }).click()
  await expect(rec.getByText('Someone else has just saved this patient.')).toHaveCount(0)
  await expect(rec.getByLabel('Phone', { exact: true })).toHaveValue('0903 555 111')
  await expect(rec.getByLabel('Address')).toHaveValue('7 Hàng Bạc, Hà Nội')
  await rec.getByRole('button', { name: 'Save' }).click()
  await expect(rec).toHaveURL(new RegExp(`/masterfile/profile/${patient.id}/`))
  await expect(rec.getByText('7 Hàng Bạc, Hà Nội')).toBeVisible()
  await ours.close()
  await theirs.close()
})

test('logging out in one tab opens the login page in the other tabs of that session', async ({ page, context }) => {
  await login(page, 'nurse')
  const other = await context.newPage()
  const heard: string[] = []
  other.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await other.goto('/appointments/appointments')
  await expect.poll(() => heard.some((f) => f.includes('subscription_succeeded') && f.includes('App.Models.User.'))).toBe(true)
  await logout(page, 'E2E nurse')
  await expect(other).toHaveURL(/\/login/) // no "session ended" notice: they logged out themselves
})

test('two people on one patient form see each other, and the notice goes when one leaves', async ({ browser }) => {
  const ours = await browser.newContext()
  const rec = await ours.newPage()
  await authenticate(rec, 'receptionist')
  const patient = await newPatient(rec, `Together${unique()}`)
  await rec.goto(`/masterfile/patient_form/${patient.id}`)

  const theirs = await browser.newContext()
  const admin = await theirs.newPage()
  await authenticate(admin, 'admin')
  await admin.goto(`/masterfile/patient_form/${patient.id}`)
  await expect(admin.getByTestId('also-editing')).toHaveText('Also editing this patient right now: E2E receptionist')
  await expect(rec.getByTestId('also-editing')).toHaveText('Also editing this patient right now: E2E admin')

  // The admin closes the browser: the receptionist is alone again.
  await theirs.close()
  await expect(rec.getByTestId('also-editing')).toHaveCount(0)
  await ours.close()
})

test('a cashier who may not see appointments hears a new bill on the bills channel, and nothing of appointments', async ({ page, browser }) => {
  // A cashier: payments only, no appointments, no patients.
  await login(page, 'admin')
  const role = `cashier-${unique()}`
  expect((await api(page, 'post', '/api/roles', { name: role })).status()).toBe(201)
  const roles = (await (await api(page, 'get', '/api/roles')).json()) as { data: { name: string; permissions: string[] }[]; version: number }
  const matrix = Object.fromEntries(roles.data.filter((r) => r.name !== 'admin').map((r) => [r.name, r.name === role ? ['record payment'] : r.permissions]))
  expect((await api(page, 'put', '/api/roles/matrix', { matrix, version: roles.version })).status()).toBe(200)
  const username = `till-${unique()}`
  expect((await api(page, 'post', '/api/users', { username, name: `Till ${username}`, roles: [role], password: 'a long enough password' })).status()).toBe(201)

  const theirs = await browser.newContext()
  const cashier = await theirs.newPage()
  const heard: string[] = []
  cashier.on('websocket', (ws) => ws.on('framereceived', (f) => heard.push(String(f.payload))))
  await authenticate(cashier, username, 'a long enough password')
  await cashier.goto('/fees/bills')
  await expect.poll(() => heard.some((f) => f.includes('subscription_succeeded') && f.includes('private-bills'))).toBe(true)
  expect(heard.some((f) => f.includes('private-appointments'))).toBe(false)

  // The receptionist opens a walk-in bill: the cashier's list shows it without reload.
  const ours = await browser.newContext()
  const rec = await ours.newPage()
  await login(rec, 'receptionist')
  const last = `Till${unique()}`
  const patient = await newPatient(rec, last)
  expect((await api(rec, 'post', '/api/bills', { patient_id: patient.id })).status()).toBe(201)
  await expect.poll(() => heard.some((f) => f.includes('App.Events.BillChanged'))).toBe(true)
  await expect(activeView(cashier).getByText(last).first()).toBeVisible({ timeout: 5_000 })
  expect(heard.some((f) => f.includes('App.Events.AppointmentChanged'))).toBe(false)
  await ours.close()
  await theirs.close()
})
