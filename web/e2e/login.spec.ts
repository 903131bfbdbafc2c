import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { activeView, loginWithForm, logout, PASSWORD } from './helpers'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ') + ' ' + n.failureSummary).join(' | ')}`)
}

test('a logged-out visitor is sent to login, and back after logging in', async ({ page }) => {
  await page.goto('/masterfile/patients?page=2')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fmasterfile%2Fpatients%3Fpage%3D2$/)
  await expect(page).toHaveTitle('Log in - EMR')
  await page.getByLabel('Username').fill('  admin  ')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL('/masterfile/patients?page=2')
  await expect(page).toHaveTitle('Patients - EMR')
})

test('a logged-in user going to /login is sent home', async ({ page }) => {
  await loginWithForm(page, 'nurse')
  await page.goto('/login')
  await expect(page).toHaveURL('/dashboard')
})

test('log in, see who I am, log out', async ({ page, context }) => {
  await loginWithForm(page, 'doctor')
  await expect(page).toHaveURL('/dashboard')
  await expect(page).toHaveTitle('Dashboard - EMR')
  await expect(page.getByRole('heading', { name: 'Welcome, E2E doctor' })).toBeVisible()
  const cookies = await context.cookies()
  expect(cookies.find((c) => c.name === 'isLogged')?.value).toBe('1')
  const session = cookies.find((c) => c.name === 'emr_session')
  expect(session?.httpOnly).toBe(true)

  await page.goto('/appointments/appointments')
  await logout(page, 'E2E doctor')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fappointments%2Fappointments$/)
  expect((await context.cookies()).find((c) => c.name === 'isLogged')).toBeUndefined()
  // The session was revoked on the server, not just forgotten by the browser.
  await context.addCookies([{ ...session!, expires: -1 }])
  expect((await page.request.get('/api/user')).status()).toBe(401)
})

test('a wrong password shows the server message in the form, in the chosen language', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Username').fill('nurse')
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('The username or password is incorrect.')

  await page.getByLabel('Language').selectOption('ru')
  await page.getByRole('button', { name: 'Войти' }).click()
  await expect(page.getByRole('alert')).toHaveText('Неверное имя пользователя или пароль.')
  await page.reload()
  await expect(page.getByLabel('Имя пользователя')).toBeVisible()
  await expect(page).toHaveTitle('Вход - EMR')
})

test('empty fields are caught before sending', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('Enter your username.')).toBeVisible()
  await expect(page.getByText('Enter your password.')).toBeVisible()
  await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true')
})

test('an ended session goes to login, which says why', async ({ page }) => {
  // No live channel here: this is the session found ended when the page next asks (after an
  // idle time-out, which nothing announces). A logout elsewhere is announced: push.spec.ts.
  await page.routeWebSocket(/\/app\//, (ws) => void ws.close({ code: 1001, reason: 'test: no live channel' }))
  await loginWithForm(page, 'receptionist')
  await page.goto('/appointments/appointments')
  await page.waitForLoadState('networkidle')
  // The session ends on the server.
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  expect((await page.request.post('/api/auth/logout', { headers: { 'X-XSRF-TOKEN': xsrf } })).status()).toBe(204)
  await page.reload()
  await expect(page).toHaveURL(/\/login\?redirect=%2Fappointments%2Fappointments$/)
  await expect(page.getByRole('alert')).toHaveText('Your session has ended. Please log in again.')
})

test('the login page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByLabel('Username')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('the logged-in layout has no serious accessibility violations', async ({ page }) => {
  await loginWithForm(page, 'admin')
  await page.goto('/masterfile/patients')
  await expect(activeView(page).getByRole('table', { name: 'Patients' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.goto('/masterfile/patient_form/new')
  await expect(page.getByLabel('Last name')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})
