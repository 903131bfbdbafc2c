import { expect, test } from '@playwright/test'
import { PASSWORD, api, authenticate, unique } from './helpers'
import { port } from './ports'

const base = `http://127.0.0.1:${port}/fhir/R4`

// One's own API token, made on the profile with the password again and scoped from what the
// account reaches, reads patients through FHIR; changing the password ends it at once, and
// the profile says why.
test('an own API token made on the profile ends when the password changes, and says so', async ({ page, request, browser }) => {
  // The administrator makes the account in a browser of her own: a logout and a new login in
  // one page raced each other on a busy machine (the new session found ended).
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await authenticate(admin, 'admin')
  const username = `tok${unique()}`
  const first = 'a long enough password'
  expect((await api(admin, 'post', '/api/users', { username, name: `Token ${username}`, roles: ['doctor'], password: first })).status()).toBe(201)
  await adminContext.close()
  await authenticate(page, username, first)

  await page.goto('/profile/edit')
  const card = page.getByRole('region', { name: 'My API tokens' }).or(page.locator('.ant-card', { hasText: 'My API tokens' }))
  await card.getByRole('button', { name: 'New token' }).click()
  const dialog = page.getByRole('dialog', { name: 'New token' })
  await dialog.getByLabel('Name').fill('Nightly script')
  await dialog.getByLabel('Scopes').click()
  await dialog.getByLabel('Scopes').fill('Patient: read')
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Patient: read and search' }).click()
  await dialog.getByLabel('Name').click() // close the list
  await dialog.getByLabel('Your password').fill('not my password at all')
  await dialog.getByRole('button', { name: 'Create token' }).click()
  await expect(dialog.getByText('The current password is not right.')).toBeVisible()
  await dialog.getByLabel('Your password').fill(first)
  await dialog.getByRole('button', { name: 'Create token' }).click()
  const shown = page.getByTestId('new-token')
  await expect(shown).toContainText('emr_pat_')
  const token = (await shown.innerText()).trim()
  await page.getByRole('button', { name: 'I have copied it' }).click()
  const row = page.getByRole('row', { name: /Nightly script/ })
  await expect(row).toContainText('user/Patient.rs')

  const read = () => request.get(`${base}/Patient?_count=1`, { headers: { Authorization: `Bearer ${token}` } })
  expect((await read()).status()).toBe(200)

  await page.getByLabel('Current password').fill(first)
  await page.getByLabel('New password', { exact: true }).fill(`${PASSWORD} ${unique()} changed`)
  await page.getByLabel('Repeat the new password').fill(await page.getByLabel('New password', { exact: true }).inputValue())
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(row).toContainText('Ended: the password was changed')
  expect((await read()).status()).toBe(401)
})
