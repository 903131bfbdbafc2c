import { expect, test, type Page } from '@playwright/test'
import { authenticate, dataRows, login, sidebar, toasts } from './helpers'

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')

/** Registers a patient through the API, as the logged-in page's user. */
async function apiCreate(page: Page, body: Record<string, unknown>) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  const r = await page.request.post('/api/patients', { data: body, headers: { 'X-XSRF-TOKEN': xsrf } })
  expect(r.status()).toBe(201)
  return (await r.json()) as { id: number; mrn: string }
}

const unique = () => Math.random().toString(36).slice(2, 7)

async function fillNewPatient(page: Page, last: string, first: string, birth: string) {
  await page.getByLabel('Last name').fill(last)
  await page.getByLabel('First name').fill(first)
  await page.getByLabel('Sex').click()
  await page.getByTitle('Female').click()
  await page.getByLabel('Birth date', { exact: true }).fill(birth)
  await page.getByLabel('Birth date', { exact: true }).press('Tab')
}

test('register a patient, with a duplicate warning for a twin', async ({ page }) => {
  await authenticate(page, 'receptionist')
  const last = `Trần-${unique()}`
  await page.goto('/masterfile/patients')
  await page.getByRole('button', { name: 'New patient' }).click()
  await expect(page).toHaveURL('/masterfile/patient_form/new')
  await fillNewPatient(page, last, 'Thị Bình', '1975-07-07')
  await page.getByLabel('Phone', { exact: true }).fill('+84 912 000 111')
  // Choosing "Has allergies" opens the first allergy's line.
  await page.getByRole('radio', { name: 'Has allergies' }).check()
  await page.getByLabel('Substance').fill('Penicillin')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/masterfile\/profile\/\d+\/\d{4}-\d{6}$/)
  await expect(page.getByRole('heading', { name: new RegExp(last), level: 1 })).toBeAttached()
  await expect(page.getByText('Allergies: Penicillin')).toBeVisible()
  // The tab and the title name the patient, in the language's order (English: first name first).
  await expect(page).toHaveTitle(`Thị Bình ${last} · Patient Profile - EMR`)

  // The same person again: warned before saving, and nothing is saved on cancel.
  await page.goto('/masterfile/patient_form/new')
  await fillNewPatient(page, last.toUpperCase(), 'thi binh', '1975-07-07')
  await page.getByRole('button', { name: 'Save' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByText('This patient may be registered already').filter({ visible: true })).toBeVisible()
  // The new entry beside the existing record, the matching fields marked.
  const table = dialog.getByTestId('duplicate-comparison')
  await expect(table.getByRole('row', { name: /Birth date/ })).toContainText('1975-07-07 (same)')
  await expect(table.getByRole('row', { name: /Name/ })).toContainText(`${last} (same)`)
  await expect(table.getByRole('row', { name: /Phone/ })).not.toContainText('(same)')
  // Focus starts on Cancel: Enter does not register the duplicate.
  await page.keyboard.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/masterfile/patient_form/new')
  await page.goto(`/masterfile/patients?q=${encodeURIComponent(last)}`)
  await expect(dataRows(page)).toHaveCount(1)
})

test('invalid input gets field messages in the user language', async ({ page }) => {
  await authenticate(page, 'receptionist')
  await page.goto('/masterfile/patient_form/new')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('This field is required.').first()).toBeVisible()
  await expect(page).toHaveURL('/masterfile/patient_form/new')
})

test('edit, and two tabs editing one patient: the second gets a conflict and loses nothing', async ({ page, context }) => {
  await login(page, 'receptionist')
  const p = await apiCreate(page, { first_name: 'Анна', last_name: `Иванова${unique()}`, sex: 'female', birth_date: '1985-02-03', phone: '100' })
  const other = await context.newPage()
  await page.goto(`/masterfile/patient_form/${p.id}`)
  await other.goto(`/masterfile/patient_form/${p.id}`)
  await expect(other.getByLabel('Phone', { exact: true })).toHaveValue('100')

  await page.getByLabel('Phone', { exact: true }).fill('200')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(new RegExp(`/masterfile/profile/${p.id}/`))
  await expect(page.getByText('200')).toBeVisible()

  await other.getByLabel('Address').fill('12 Lê Lợi, Huế')
  await other.getByRole('button', { name: 'Save' }).click()
  await expect(other.getByText('Someone else changed this patient while you were editing.')).toBeVisible()
  await expect(other.getByLabel('Address')).toHaveValue('12 Lê Lợi, Huế') // nothing typed is lost
  await other.getByRole('button', { name: 'Load their version and keep my changes' }).click()
  await expect(other.getByLabel('Phone', { exact: true })).toHaveValue('200')
  await expect(other.getByLabel('Address')).toHaveValue('12 Lê Lợi, Huế')
  await other.getByRole('button', { name: 'Save' }).click()
  await expect(other).toHaveURL(new RegExp(`/masterfile/profile/${p.id}/`))
  await expect(other.getByText('12 Lê Lợi, Huế')).toBeVisible()
  await expect(other.getByText('200')).toBeVisible()
})

test('search finds patients by partial names in every script, and by number', async ({ page }) => {
  await login(page, 'admin')
  const tag = unique()
  const vi = await apiCreate(page, { first_name: 'Văn An', last_name: `Nguyễn${tag}`, sex: 'male', birth_date: '1990-01-01' })
  await apiCreate(page, { first_name: 'Анна', last_name: `Ёлкина${tag}`, sex: 'female', birth_date: '1980-01-01' })
  await apiCreate(page, { first_name: '小明', last_name: `王${tag}`, sex: 'male', birth_date: '2001-01-01' })
  await apiCreate(page, { first_name: 'Mary', last_name: `Smith${tag}`, sex: 'female', birth_date: '1970-01-01' })
  await page.goto('/masterfile/patients')
  const box = page.getByRole('searchbox', { name: 'Search patients' })
  for (const [q, name] of [
    [`nguyen${tag} va`, `Văn An Nguyễn${tag}`],
    [`ЕЛКИНА${tag} ан`, `Анна Ёлкина${tag}`],
    [`王${tag} 明`, `小明 王${tag}`],
    [`mar smith${tag}`, `Mary Smith${tag}`],
    [vi.mrn, `Văn An Nguyễn${tag}`],
  ]) {
    await box.fill(q)
    await expect(dataRows(page)).toHaveCount(1)
    await expect(dataRows(page).getByRole('link', { name })).toBeVisible()
  }
  await box.fill(`zzz${tag}`)
  await expect(page.getByText('No patients match.').first()).toBeVisible() // the list's empty state (a status line says it too)
})

test('archive with a reason, find in the archive, restore', async ({ page }) => {
  await login(page, 'receptionist')
  const last = `Archived${unique()}`
  const p = await apiCreate(page, { first_name: 'Old', last_name: last, sex: 'male', birth_date: '1950-01-01' })
  await page.goto(`/masterfile/profile/${p.id}/${p.mrn}`)
  await page.getByRole('button', { name: 'Archive', exact: true }).click()
  await page.getByLabel('Reason').fill('Moved to another city')
  await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click()
  await expect(page.getByText('This patient is archived: Moved to another city')).toBeVisible()
  await page.goto(`/masterfile/patients?q=${last}`)
  await expect(page.getByText('No patients match.').first()).toBeVisible() // the list's empty state (a status line says it too)
  await page.getByRole('switch').click()
  await expect(dataRows(page).getByText('Archived', { exact: true })).toBeVisible()
  await dataRows(page).getByRole('link', { name: new RegExp(last) }).click()
  await page.getByRole('button', { name: 'Restore' }).click()
  await expect(toasts(page).getByText('Patient restored.')).toBeVisible()
  await expect(page.getByText('This patient is archived')).toHaveCount(0)
})

test('photo and attachment upload and download', async ({ page }) => {
  await login(page, 'doctor')
  const p = await apiCreate(page, { first_name: 'Lan', last_name: `Phạm${unique()}`, sex: 'female', birth_date: '1999-09-09' })
  await page.goto(`/masterfile/profile/${p.id}/${p.mrn}`)
  await page.locator('input[type=file][accept^="image/jpeg"]').setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: PNG })
  await expect(toasts(page).getByText('Uploaded.').first()).toBeVisible()
  const img = page.getByRole('img', { name: /^Photo of / })
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1)

  await page.locator('input[type=file][accept^="image/*"]').setInputFiles({ name: 'lab results.pdf', mimeType: 'application/pdf', buffer: PDF })
  await expect(page.getByRole('link', { name: 'lab results.pdf' }).first()).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'lab results.pdf' }).first().click()
  expect((await download).suggestedFilename()).toBe('lab results.pdf')

  // A file that only claims to be an image is refused, with the server's message.
  await page.locator('input[type=file][accept^="image/*"]').setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('<script>') })
  await expect(toasts(page).getByText('An attachment must be an image or a PDF.')).toBeVisible()
})

test('a nurse can read but not change patients', async ({ page }) => {
  await authenticate(page, 'nurse')
  await page.goto('/masterfile/patients')
  await expect(dataRows(page).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'New patient' })).toHaveCount(0)
  // A screen that exists but is not hers says so (and who gives access), not "not found".
  await page.goto('/masterfile/patient_form/new')
  await expect(page.getByText('You do not have access to this page')).toBeVisible()
})

test('a user without "view patient" sees no Master File and is refused by the API', async ({ page }) => {
  await login(page, 'visitor')
  await expect(sidebar(page).getByRole('menuitem', { name: 'Master File' })).toHaveCount(0)
  await page.goto('/masterfile/patients')
  await expect(page.getByText('You do not have access to this page')).toBeVisible()
  const r = await page.request.get('/api/patients')
  expect(r.status()).toBe(403)
  expect((await r.json()).error).toBe('You do not have permission to do this. Ask an administrator if you need it.')
})

test('Enter never registers a half-filled patient; after registering, the form is empty again', async ({ page }) => {
  await authenticate(page, 'receptionist')
  const last = `Enter-${unique()}`
  await page.goto('/masterfile/patient_form/new')
  await page.getByLabel('Last name').fill(last)
  await page.getByLabel('First name').fill('An')
  await page.getByLabel('Sex').click()
  await page.getByTitle('Female').click()
  await page.getByLabel('Birth date', { exact: true }).fill('1990-05-06')
  // Enter confirms the date; it does not save the form.
  await page.getByLabel('Birth date', { exact: true }).press('Enter')
  await page.getByLabel('First name').press('Enter')
  await expect(page).toHaveURL('/masterfile/patient_form/new')
  await page.getByLabel('Phone', { exact: true }).fill('0903 111 222')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/masterfile\/profile\/\d+\//)
  await expect(page.getByTestId('patient-banner')).toContainText(`An ${last}`)
  // The Patient Form tab is empty now: Save cannot register the same person again.
  await page.goto('/masterfile/patient_form/new')
  await expect(page.getByLabel('Last name')).toHaveValue('')
  await expect(page.getByLabel('Phone', { exact: true })).toHaveValue('')

  // The same person on purpose, as a different person: an explicit choice.
  await page.getByLabel('Last name').fill(last)
  await page.getByLabel('First name').fill('An')
  await page.getByLabel('Sex').click()
  await page.getByTitle('Female').click()
  await page.getByLabel('Birth date', { exact: true }).fill('1990-05-06')
  await page.getByLabel('Birth date', { exact: true }).press('Tab')
  await page.getByRole('button', { name: 'Save' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Register as a different person' }).click()
  await expect(page).toHaveURL(/\/masterfile\/profile\/\d+\//)
  await page.goto(`/masterfile/patients?q=${encodeURIComponent(last)}`)
  await expect(dataRows(page)).toHaveCount(2)
})
