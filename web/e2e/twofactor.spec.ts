import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { api, authenticate, login, logout, totp, unique } from './helpers'


async function newAccount(page: Page, role: string) {
  const username = `tf-${unique()}`
  const password = 'lantern orchard seven glacier'
  const r = await api(page, 'post', '/api/users', { username, name: `Two Factor ${username}`, roles: [role], password })
  expect(r.status()).toBe(201)
  const { id } = (await r.json()) as { id: number }
  return { id, username, password, name: `Two Factor ${username}` }
}

async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
}

test('two-factor sign-in: set up with the app, then password and code; a recovery code works once', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await login(page, 'admin')
  const user = await newAccount(page, 'receptionist')
  await logout(page, 'E2E admin')

  await authenticate(page, user.username, user.password)
  await page.goto('/profile/edit')
  const card = page.getByTestId('two-factor')
  await card.getByRole('button', { name: 'Set up' }).click()
  await expect(card.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible()
  const secret = (await card.getByTestId('totp-secret').innerText()).trim()
  const now = Date.now()
  await card.getByLabel('The 6-digit code the app now shows').fill(totp(secret, now))
  await card.getByRole('button', { name: 'Turn on' }).click()
  const codes = (await card.getByTestId('recovery-codes').innerText()).trim().split('\n')
  expect(codes).toHaveLength(10)
  // Kept somewhere safe: saved as a text file holding every code.
  const [saved] = await Promise.all([page.waitForEvent('download'), card.getByTestId('download-codes').click()])
  const file = readFileSync(await saved.path())
  for (const c of codes) expect(file.toString()).toContain(c)
  await expect(card.getByText('On', { exact: true })).toBeVisible()
  await logout(page, user.name)

  // The password, then the code (the next one: the first was used to turn it on).
  await signIn(page, user.username, user.password)
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible()
  await page.getByLabel('Code').fill(totp(secret, now + 30_000))
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await logout(page, user.name)

  // A recovery code signs in once.
  const other = await browser.newPage()
  for (const [attempt, ok] of [[1, true], [2, false]] as const) {
    await signIn(other, user.username, user.password)
    await other.getByLabel('Code').fill(codes[0])
    await other.getByRole('button', { name: 'Log in' }).click()
    if (ok) {
      await expect(other, `recovery code, try ${attempt}`).not.toHaveURL(/\/login/)
      await logout(other, user.name)
    } else {
      await expect(other.getByRole('alert')).toContainText('That code is wrong or has been used already')
      await expect(other).toHaveURL(/\/login/)
    }
  }
  await other.close()

  // The administrator is offered a reset for this account, and not for one with its password only.
  await login(page, 'admin')
  const plain = await newAccount(page, 'receptionist')
  await page.goto(`/administrator/users/edit/${user.id}`)
  await expect(page.getByRole('button', { name: 'Reset two-factor sign-in' })).toBeVisible()
  await page.goto(`/administrator/users/edit/${plain.id}`)
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Reset two-factor sign-in' })).toHaveCount(0)
  const refused = await api(page, 'post', `/api/users/${plain.id}/two-factor/reset`, {})
  expect(refused.status()).toBe(409)
  expect(((await refused.json()) as { error: string }).error).toContain('password only')
})

test('a role that requires two-factor sign-in sends its members to set it up first', async ({ page }) => {
  await login(page, 'admin')
  const roles = (await (await api(page, 'get', '/api/roles')).json()) as { data: { id: number; name: string }[] }
  const visitor = roles.data.find((r) => r.name === 'visitor')!
  const user = await newAccount(page, 'visitor')
  await page.goto('/administrator/roles')
  const box = page.getByTestId('require-2fa-visitor')
  await box.click() // saved at once; checked once the server has it
  await expect(box).toBeChecked()
  try {
    await logout(page, 'E2E admin')
    await login(page, user.username, user.password)
    await expect(page).toHaveURL('/profile/edit')
    await expect(page.getByTestId('must-enrol')).toBeVisible()
    expect((await api(page, 'get', '/api/patients')).status()).toBe(403)
  } finally {
    // As it was, for whatever runs next.
    const admin = await page.context().browser()!.newPage()
    await authenticate(admin, 'admin')
    expect((await api(admin, 'put', `/api/roles/${visitor.id}/two-factor`, { required: false })).status()).toBe(200)
    await admin.close()
  }
})
