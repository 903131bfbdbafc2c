import { expect, test, type Page } from '@playwright/test'
import { activeView, login, sidebar, unique } from './helpers'

const menu = (page: Page, name: string) => sidebar(page).getByRole('menuitem', { name, exact: false })

test('an administrator creates a doctor, changes the role, deactivates and resets the password; each applies to the open session', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const username = `dr-${unique()}`
  const password = 'a long enough password'
  await login(page, 'admin')
  await page.goto('/administrator/users')
  await page.getByRole('button', { name: 'New account' }).click()
  const dialog = page.getByRole('dialog', { name: 'New account' })
  await dialog.getByLabel('Username', { exact: true }).fill(username)
  await dialog.getByLabel('Name', { exact: true }).fill(`Dr ${username}`)
  await dialog.getByLabel('Roles').click()
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Doctor' }).click()
  await dialog.getByLabel('Password').fill('short')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('At least 12 characters.').first()).toBeVisible()
  await dialog.getByLabel('Password').fill(password)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/administrator\/users\/edit\/\d+$/)
  const edit = page.url()

  // The new doctor sees the doctor's menus and not the administration.
  const theirs = await browser.newContext()
  const doctor = await theirs.newPage()
  await login(doctor, username, password)
  await expect(menu(doctor, 'Forms')).toBeVisible()
  await expect(menu(doctor, 'Administrator')).toHaveCount(0)

  // Nurse instead of doctor: on their next page load, Forms is gone.
  const form = activeView(page).locator('form')
  /** Saves the account form and waits for the server to have it. */
  const save = async () => {
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/users\/\d+$/.test(r.url()))
    await form.getByRole('button', { name: 'Save' }).click()
    expect((await saved).status()).toBe(200)
    await expect(page.getByText('Account saved.').last()).toBeVisible()
  }
  await form.getByLabel('Roles').click()
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Nurse' }).click()
  await page.keyboard.press('Escape')
  await form.locator('.ant-select-selection-item', { hasText: 'Doctor' }).locator('.ant-select-selection-item-remove').click()
  await save()
  await doctor.reload()
  await expect(menu(doctor, 'Appointments')).toBeVisible()
  await expect(menu(doctor, 'Forms')).toHaveCount(0)

  // Deactivated: the open session ends and logging in is refused.
  await form.getByRole('switch', { name: 'Active' }).click()
  await save()
  await doctor.reload()
  await expect(doctor).toHaveURL(/\/login/)
  await doctor.getByLabel('Username').fill(username)
  await doctor.getByLabel('Password').fill(password)
  await doctor.getByRole('button', { name: 'Log in' }).click()
  await expect(doctor.getByRole('alert')).toBeVisible()
  await expect(doctor).toHaveURL(/\/login/)

  // Reactivated with a reset password: they must choose a new one before anything else.
  await page.goto(edit)
  await form.getByRole('switch', { name: 'Active' }).click()
  await save()
  await page.getByRole('button', { name: 'Reset password' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Reset password' }).click()
  const temporary = (await page.getByTestId('temporary-password').innerText()).trim()
  expect(temporary.length).toBeGreaterThanOrEqual(12)

  await login(doctor, username, temporary)
  await expect(doctor).toHaveURL(/\/profile\/edit$/)
  await expect(doctor.getByTestId('must-change')).toBeVisible()
  await doctor.goto('/appointments/appointments')
  await expect(doctor).toHaveURL(/\/profile\/edit$/)
  const card = doctor.locator('.ant-card').filter({ has: doctor.getByRole('button', { name: 'Change password' }) })
  await card.getByLabel('Current password').fill(temporary)
  await card.getByLabel('New password', { exact: true }).fill('their very own password')
  await card.getByLabel('Repeat the new password').fill('their very own password')
  await card.getByRole('button', { name: 'Change password' }).click()
  await expect(doctor.getByTestId('must-change')).toHaveCount(0)
  await expect(menu(doctor, 'Appointments')).toBeVisible()
  await theirs.close()

  // The list finds them, with their role and state.
  await page.goto('/administrator/users')
  await page.getByLabel('Search by name, username or e-mail').fill(username)
  const row = page.getByRole('row').filter({ hasText: username })
  await expect(row.getByText('Nurse')).toBeVisible()
  await expect(row.getByText('Active')).toBeVisible()
})

test('a role\'s permissions change in the matrix and a menu appears and disappears', async ({ page, browser }) => {
  await login(page, 'admin')
  await page.goto('/administrator/roles')
  const cell = activeView(page).getByRole('checkbox', { name: 'visitor: view patient' })
  await expect(cell).not.toBeChecked()
  await expect(activeView(page).getByRole('checkbox', { name: 'admin: manage user' })).toBeDisabled()

  const theirs = await browser.newContext()
  const visitor = await theirs.newPage()
  await login(visitor, 'visitor')
  await expect(menu(visitor, 'Master File')).toHaveCount(0)

  await cell.check()
  await activeView(page).getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Permissions saved.').last()).toBeVisible()
  await visitor.reload()
  await expect(menu(visitor, 'Master File')).toBeVisible()

  await page.reload()
  await activeView(page).getByRole('checkbox', { name: 'visitor: view patient' }).uncheck()
  await activeView(page).getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Permissions saved.').last()).toBeVisible()
  await visitor.reload()
  await expect(menu(visitor, 'Appointments')).toHaveCount(0)
  await expect(menu(visitor, 'Master File')).toHaveCount(0)
  await theirs.close()
})
