import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { login, PASSWORD } from './helpers'

test('a logged-out visitor is sent to login, and back after logging in', async ({ page }) => {
  await page.goto('/some/deep/page?x=1')
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsome%2Fdeep%2Fpage%3Fx%3D1$/)
  await expect(page).toHaveTitle('Log in - EMR')
  await page.getByLabel('Username').fill('  admin  ')
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL('/some/deep/page?x=1')
})

test('log in, see who I am, log out', async ({ page, context }) => {
  await login(page, 'doctor')
  await expect(page.getByRole('heading', { name: 'Welcome, E2E doctor' })).toBeVisible()
  await expect(page.getByText('Doctor', { exact: true })).toBeVisible()
  const cookies = await context.cookies()
  expect(cookies.find((c) => c.name === 'isLogged')?.value).toBe('1')
  const session = cookies.find((c) => c.name === 'emr_session')
  expect(session?.httpOnly).toBe(true)

  await page.getByRole('button', { name: 'Log Out' }).click()
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/)
  expect((await context.cookies()).find((c) => c.name === 'isLogged')).toBeUndefined()
  // The session was revoked on the server, not just forgotten by the browser.
  await context.addCookies([{ ...session!, expires: -1 }])
  const me = await page.request.get('/api/user')
  expect(me.status()).toBe(401)
})

test('a wrong password shows the server message in the form, in the chosen language', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Username').fill('nurse')
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('The username or password is incorrect.')

  await page.getByLabel('Language').click()
  await page.getByTitle('Русский').click()
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible()
  await page.getByRole('button', { name: 'Войти' }).click()
  await expect(page.getByRole('alert')).toHaveText('Неверное имя пользователя или пароль.')
  await page.reload()
  await expect(page.getByLabel('Имя пользователя')).toBeVisible()
})

test('empty fields are caught before sending', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('Enter your username.')).toBeVisible()
  await expect(page.getByText('Enter your password.')).toBeVisible()
})

test('the login page has no serious accessibility violations', async ({ page }) => {
  await page.goto('/login')
  await expect(page.getByLabel('Username')).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(" ") + " " + n.failureSummary).join(" | ")}`)).toEqual([])
})

test('the logged-in page has no serious accessibility violations', async ({ page }) => {
  await login(page, 'receptionist')
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(" ") + " " + n.failureSummary).join(" | ")}`)).toEqual([])
})
