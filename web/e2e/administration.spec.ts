import { expect, test, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { activeView, api, authenticate, login, newPatient, sidebar, unique } from './helpers'

const menu = (page: Page, name: string) => sidebar(page).getByRole('menuitem', { name, exact: false })

test('an administrator creates a doctor, changes the role, deactivates and resets the password; each applies to the open session', async ({ page, browser }) => {
  test.setTimeout(240_000)
  const username = `dr-${unique()}`
  const password = 'a long enough password'
  await authenticate(page, 'admin')
  await page.goto('/administrator/users')
  await page.getByRole('button', { name: 'New account' }).click()
  const dialog = page.getByRole('dialog', { name: 'New account' })
  // The dialog starts in its first field once open; typing waits for that.
  await expect(dialog.getByLabel('Username', { exact: true })).toBeFocused()
  await dialog.getByLabel('Username', { exact: true }).fill(username)
  await dialog.getByLabel('Name', { exact: true }).fill(`Dr ${username}`)
  await dialog.getByLabel('Roles').click()
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'Doctor' }).click()
  await dialog.getByLabel('Password').fill('short')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByTestId('password-strength')).toContainText('Too short')
  // A common password: the meter says so as it is typed, and the server refuses it with its reason.
  await dialog.getByLabel('Password').fill('password1234')
  await expect(dialog.getByTestId('password-strength')).toContainText('Too easy to guess')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('This password is among those tried first').first()).toBeVisible()
  await dialog.getByLabel('Password').fill(password)
  await expect(dialog.getByTestId('password-strength')).not.toContainText('Too easy to guess')
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
  // A nurse signs no prescription or document: no licences, specialisations or signature asked.
  await expect(doctor.getByRole('button', { name: 'Change password' })).toBeVisible()
  await expect(doctor.getByRole('button', { name: 'Add licence' })).toHaveCount(0)
  await expect(doctor.getByText('Signature', { exact: true })).toHaveCount(0)
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
  await authenticate(page, 'admin')
  await page.goto('/administrator/roles')
  const cell = activeView(page).getByRole('checkbox', { name: 'visitor: View patients' })
  await expect(cell).not.toBeChecked()
  await expect(activeView(page).getByRole('checkbox', { name: 'Administrator: Manage staff accounts' })).toBeDisabled()

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
  await activeView(page).getByRole('checkbox', { name: 'visitor: View patients' }).uncheck()
  await activeView(page).getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Permissions saved.').last()).toBeVisible()
  await visitor.reload()
  await expect(menu(visitor, 'Appointments')).toHaveCount(0)
  await expect(menu(visitor, 'Master File')).toHaveCount(0)
  await theirs.close()
})

test('role preview shows a receptionist\'s menus, what-I-can-do follows it, and the way back restores the admin\'s', async ({ page }) => {
  await authenticate(page, 'admin')
  await page.goto('/permission/directive')
  await expect(activeView(page).getByTestId('shown-manage user')).toBeVisible()

  await page.goto('/administrator/roles')
  await activeView(page).getByRole('button', { name: 'Preview a role' }).click()
  await expect(page).toHaveURL(/\/permission\/page$/)
  await page.locator('.ant-radio-button-wrapper', { hasText: 'Receptionist' }).click()
  await expect(activeView(page).getByTestId('preview-permissions')).toContainText('Book and manage appointments')
  await activeView(page).getByRole('button', { name: 'Preview as Receptionist' }).click()

  await expect(page.getByTestId('preview-banner')).toContainText('Previewing as Receptionist')
  await expect(menu(page, 'Master File')).toBeVisible()
  await expect(menu(page, 'Appointments')).toBeVisible()
  await expect(menu(page, 'Administrator')).toHaveCount(0)
  await expect(menu(page, 'Forms')).toHaveCount(0)
  await expect(menu(page, 'My Profile')).toHaveCount(0)

  // The preview lasts for the tab's life: a reload and a typed address keep it and its banner.
  await page.reload()
  await expect(page.getByTestId('preview-banner')).toContainText('Previewing as Receptionist')
  await expect(menu(page, 'Administrator')).toHaveCount(0)
  await page.goto('/administrator/users')
  await expect(page.getByTestId('preview-banner')).toContainText('Previewing as Receptionist')
  // A screen the previewed role may not open says so (not "not found").
  await expect(activeView(page).getByText('You do not have access to this page')).toBeVisible()
  await page.goto('/no/such/page')
  await expect(activeView(page).getByText('This page does not exist, or it has moved.')).toBeVisible()
  await page.goto('/permission/page')

  await page.getByTestId('preview-exit').click()
  await expect(page.getByTestId('preview-banner')).toHaveCount(0)
  await expect(page).toHaveURL(/\/permission\/page$/)
  await expect(menu(page, 'Administrator')).toBeVisible()
  await expect(menu(page, 'Forms')).toBeVisible()
})

test('what-I-can-do hides the controls a nurse may not use, and the server refuses them anyway', async ({ page, browser }) => {
  // The nurse role is given the permission menu for this test only.
  await login(page, 'admin')
  const roles = (await (await api(page, 'get', '/api/roles')).json()) as { data: { name: string; permissions: string[] }[]; version: number }
  const matrix = Object.fromEntries(roles.data.filter((r) => r.name !== 'admin').map((r) => [r.name, r.permissions]))
  const withMenu = { ...matrix, nurse: [...matrix.nurse, 'view menu permission'] }
  expect((await api(page, 'put', '/api/roles/matrix', { matrix: withMenu, version: roles.version })).status()).toBe(200)
  const theirs = await browser.newContext()
  const nurse = await theirs.newPage()
  try {
    await authenticate(nurse, 'nurse')
    await nurse.goto('/permission/directive')
    const view = activeView(nurse)
    await expect(view.getByTestId('directive-who')).toContainText('E2E nurse')
    await expect(view.getByTestId('hidden-manage patient')).toBeVisible()
    await expect(view.getByTestId('shown-manage patient')).toHaveCount(0)
    await expect(view.locator('[data-held="true"]').filter({ hasText: 'Record vitals' })).toBeVisible()
    await expect(view.locator('[data-held="false"]').filter({ hasText: 'Register and edit patients' })).toBeVisible()
    const r = await api(nurse, 'post', '/api/patients', { first_name: 'No', last_name: 'Access', birth_date: '1990-01-01', sex: 'female' })
    expect(r.status()).toBe(403)
  } finally {
    await theirs.close()
    const now = (await (await api(page, 'get', '/api/roles')).json()) as { version: number }
    await api(page, 'put', '/api/roles/matrix', { matrix, version: now.version })
  }
})

test('emergency access is granted with a reason, flagged in the audit log, found by the viewer and exported', async ({ page, browser }) => {
  test.setTimeout(240_000)
  await authenticate(page, 'admin')
  const username = `rc-${unique()}`
  const created = await api(page, 'post', '/api/users', { username, name: `Rec ${username}`, roles: ['receptionist'], password: 'a long enough password' })
  expect(created.status()).toBe(201)
  const account = (await created.json()) as { id: number }
  const patient = await newPatient(page, `Audit${unique()}`)

  await page.goto(`/administrator/users/edit/${account.id}`)
  const card = activeView(page).getByTestId('emergency-card')
  await card.getByRole('button', { name: 'Grant emergency access' }).click()
  await expect(card.getByText('This field is required.').first()).toBeVisible()
  await card.getByRole('checkbox', { name: 'Write diagnoses' }).check()
  await card.getByLabel('Reason (recorded)').fill('Night shift: Dr Lan unreachable')
  await card.getByRole('button', { name: 'Grant emergency access' }).click()
  await expect(card).toContainText('Emergency access in force until')

  const theirs = await browser.newContext()
  const rec = await theirs.newPage()
  await login(rec, username, 'a long enough password')
  await expect(rec.getByTestId('emergency-banner')).toContainText('Night shift: Dr Lan unreachable')
  await rec.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  await expect(activeView(rec).getByText(patient.mrn).first()).toBeVisible()
  await theirs.close()

  await page.goto('/administrator/audit')
  const view = activeView(page)
  await view.getByRole('textbox', { name: 'User' }).fill(username)
  await view.getByRole('checkbox', { name: 'Emergency access only' }).check()
  await view.getByRole('button', { name: 'Apply' }).click()
  const row = view.getByTestId('audit-table').getByRole('row').filter({ hasText: "Opened a patient's chart" })
  await expect(row).toContainText('emergency')
  await expect(row).toContainText(patient.mrn)

  const download = page.waitForEvent('download')
  await view.getByTestId('audit-export').click()
  const csv = await readFile((await (await download).path())!, 'utf8')
  expect(csv.split('\n')[0]).toBe('seq,at,user,action,entity_type,entity_id,patient_id,patient_number,outcome,address,emergency,detail,hash,credential,detail_text')
  expect(csv).toContain(`${username},patient.read,patient,${patient.id},${patient.id},${patient.mrn},success`)

  // The administrator's own actions are there too, the export among them.
  await view.getByRole('button', { name: 'Clear', exact: true }).click()
  await view.getByRole('textbox', { name: 'User' }).fill('admin')
  await view.getByRole('button', { name: 'Apply' }).click()
  const table = view.getByTestId('audit-table')
  await expect(table.getByRole('row').filter({ hasText: 'Exported the audit log' }).first()).toBeVisible()
  await expect(table.getByRole('row').filter({ hasText: 'Granted emergency access' }).first()).toBeVisible()
  await expect(table.getByRole('row').filter({ hasText: 'Created an account' }).first()).toBeVisible()
})

for (const role of ['doctor', 'nurse', 'receptionist']) {
  test(`"What I can do" opens for a ${role} (no restriction)`, async ({ page }) => {
    await authenticate(page, role)
    await page.goto('/permission/directive')
    await expect(page).toHaveURL(/\/permission\/directive$/)
    await expect(activeView(page).getByRole('heading', { level: 1 })).toBeVisible()
    await expect(activeView(page).getByText('You do not have access to this page')).toHaveCount(0)
    await expect(activeView(page).getByText('404')).toHaveCount(0)
  })
}

test('the Backups screen lists the scheduled archive for an administrator, and the server refuses it to others', async ({ page, browser }) => {
  await login(page, 'admin')
  await sidebar(page).getByRole('menuitem', { name: 'Administrator' }).click()
  await sidebar(page).getByRole('menuitem', { name: 'Backups' }).click()
  await expect(page).toHaveURL(/\/administrator\/backups$/)
  await expect(activeView(page).getByText('Up to date')).toBeVisible()
  await expect(activeView(page).locator('.ant-table-row')).toHaveCount(1)
  await expect(activeView(page).locator('.ant-table-row').getByText(/^emr-\d{8}-\d{6}\.emr$/)).toBeVisible()
  await expect(page.getByTestId('backup-banner')).toHaveCount(0)
  // Encrypted, and to which key: the private half is kept away from the server.
  await expect(activeView(page).getByText('Encrypted with age')).toBeVisible()
  await expect(activeView(page).getByText('age13phs3pgp0z9ztdce7ktm7g5r4e8m3plskjfmc4he9jeag285a58qj84qx8')).toBeVisible()
  await expect(activeView(page).getByText('Backups are written unencrypted')).toHaveCount(0)

  const nurse = await browser.newPage()
  await authenticate(nurse, 'nurse')
  expect((await nurse.request.get('/api/backups')).status()).toBe(403)
  await nurse.close()
})

test('an administrator backs up now and downloads the archive; the server refuses both to others', async ({ page, browser }) => {
  await authenticate(page, 'admin')
  await page.goto('/administrator/backups')
  const rows = activeView(page).locator('.ant-table-row')
  await expect(rows.first()).toBeVisible()
  const before = await rows.count()
  await expect(activeView(page).getByText(/^The \d+ newest archives$/)).toBeVisible()
  await activeView(page).getByRole('button', { name: 'Back up now' }).click()
  await expect(page.getByText(/^Backup written: emr-\d{8}-\d{6}\.emr$/)).toBeVisible()
  await expect(rows).toHaveCount(before + 1)
  const newest = (await rows.first().getByText(/^emr-\d{8}-\d{6}\.emr$/).textContent()) ?? ''

  const downloading = page.waitForEvent('download')
  await rows.first().getByRole('link', { name: `Download ${newest}` }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toBe(newest)
  const bytes = await readFile((await download.path()) ?? '')
  expect(bytes.length).toBeGreaterThan(1000)

  // The audit log names both.
  await page.goto('/administrator/audit')
  await expect(activeView(page).getByRole('row').filter({ hasText: 'Backed up the database now' }).first()).toBeVisible()
  await expect(activeView(page).getByRole('row').filter({ hasText: 'Downloaded a backup archive' }).first()).toBeVisible()

  const nurse = await browser.newPage()
  await authenticate(nurse, 'nurse')
  expect((await nurse.request.get(`/api/backups/${newest}`)).status()).toBe(403)
  await nurse.close()
})
