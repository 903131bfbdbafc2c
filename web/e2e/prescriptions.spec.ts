import { expect, test, type Page } from '@playwright/test'
import { activeView, api, bookFirstFree, chooseMenuItem, day, doctorId, authenticate, login, logout, newPatient, PASSWORD, sidebar, unique } from './helpers'

/** Books an appointment today for the E2E doctor at the first free slot from hour on (another test may hold an earlier one). */
const visit = async (page: Page, patientId: number, hour: number) => bookFirstFree(page, patientId, await doctorId(page), day(0), hour)

/** Draws a zig-zag on the signature pad. */
async function drawSignature(page: Page) {
  const pad = page.getByRole('img', { name: 'Signature pad' })
  await pad.scrollIntoViewIfNeeded()
  const box = (await pad.boundingBox())!
  await page.mouse.move(box.x + 20, box.y + box.height / 2)
  await page.mouse.down()
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * 18, box.y + box.height / 2 + (i % 2 ? -30 : 30), { steps: 4 })
  await page.mouse.up()
}

/** window.print would open a dialog; the test only needs to know it was asked for. */
const stubPrint = (page: Page) => page.addInitScript(() => (window.print = () => document.body.setAttribute('data-printed', '1')))

/** Adds a line from the catalogue on the open prescription form. */
async function addCatalogueLine(page: Page, n: number, query: string, option: string) {
  const line = page.getByTestId('rx-line').nth(n - 1)
  await line.getByRole('combobox', { name: 'Medicine' }).fill(query)
  await line.getByRole('option', { name: option }).first().click()
  await line.getByLabel('Dose').fill('1 capsule')
  await line.getByLabel('Frequency').fill('3 times a day')
  await line.getByLabel('Duration').fill('7 days')
  await line.getByLabel('Quantity').fill('21')
}

const signatureImage = (page: Page) => page.getByTestId('rx-sheet').getByRole('img', { name: "Prescriber's signature" })

test('a drawn signature prints on an issued prescription, which then cannot change; without it the print warns', async ({ page }) => {
  test.setTimeout(180_000)
  await stubPrint(page)
  await authenticate(page, 'doctor')

  // The doctor's profile: a specialisation, a valid licence, and a drawn signature.
  await page.goto('/profile/edit')
  await page.getByLabel('Specialisations').fill('Family medicine')
  await page.getByLabel('Specialisations').press('Enter')
  await page.getByRole('button', { name: 'Add licence' }).click()
  await page.getByTestId('licence').getByLabel('Number').fill('MD-2041')
  await page.getByTestId('licence').getByLabel('Valid until').fill(`${new Date().getFullYear() + 3}-12-31`)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Profile saved.')).toBeVisible()
  await expect(page.getByText('You have no signature on file.')).toBeVisible()
  // An empty pad is not saved.
  await page.getByRole('button', { name: 'Save signature' }).click()
  await expect(page.getByTestId('signature-error')).toHaveText('The pad is empty. Draw your signature first.')
  await drawSignature(page)
  await page.getByRole('button', { name: 'Save signature' }).click()
  await expect(page.getByRole('img', { name: 'Your current signature' })).toBeVisible()

  // A prescription on a visit, from the catalogue.
  const patient = await newPatient(page, `Đỗ-${unique()}`)
  const appointment = await visit(page, patient.id, 8)
  await page.goto(`/appointments/form/${appointment}`)
  await page.getByRole('button', { name: 'New prescription' }).click()
  await addCatalogueLine(page, 1, 'amox', 'Amoxicillin 500 mg capsule')
  await page.getByRole('button', { name: 'Save and preview' }).click()

  // The print page: a preview until issued, then the signature, prescriber and header.
  await expect(page).toHaveURL(/\/prescriptions\/print\/\d+$/)
  const id = Number(page.url().split('/').pop())
  await expect(page.getByText('Printing issues the prescription')).toBeVisible()
  await expect(page.getByTestId('rx-warning')).toHaveCount(0)
  await page.getByRole('button', { name: 'Issue and print' }).click()
  await expect(page.locator('body')).toHaveAttribute('data-printed', '1')
  await expect(activeView(page).getByText('Issued', { exact: true })).toBeVisible()
  const sheet = page.getByTestId('rx-sheet')
  await expect(sheet).toContainText('Amoxicillin 500 mg capsule')
  await expect(sheet).toContainText('E2E doctor')
  await expect(sheet).toContainText('Family medicine')
  await expect(sheet).toContainText('Licence MD-2041')
  await expect(sheet).not.toContainText('(expired)') // valid for three more years
  await expect(signatureImage(page)).toBeVisible()
  expect(await signatureImage(page).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  await expect(page.getByRole('button', { name: 'Print again' })).toBeVisible()

  // The print page in each language (people look at these; all four scripts must render).
  for (const lang of ['en', 'ru', 'zh', 'vi']) {
    await page.context().addCookies([{ name: 'language', value: lang, url: page.url() }])
    await page.reload()
    await expect(signatureImage(page).or(sheet.locator('img'))).toBeVisible()
    await page.screenshot({ path: `test-results/screens/prescription-print-${lang}.png`, fullPage: true })
  }
  await page.context().addCookies([{ name: 'language', value: 'en', url: page.url() }])

  // An issued prescription cannot be changed through the API, and stays as it was.
  const issued = await (await api(page, 'get', `/api/prescriptions/${id}`)).json()
  const edit = await api(page, 'put', `/api/prescriptions/${id}`, { version: issued.version, items: [{ medicine: 'Something else', quantity: '99' }] })
  expect(edit.status()).toBe(409)
  expect((await edit.json()).error).toContain('can no longer change')
  const after = await (await api(page, 'get', `/api/prescriptions/${id}`)).json()
  expect(after.items).toEqual(issued.items)
  expect(after.version).toBe(issued.version)

  // Without a signature, a new prescription's print warns.
  await page.goto('/profile/edit')
  await page.getByRole('button', { name: 'Remove signature' }).click()
  await expect(page.getByText('You have no signature on file.')).toBeVisible()
  await page.goto(`/appointments/form/${appointment}`)
  await page.getByRole('button', { name: 'New prescription' }).click()
  await addCatalogueLine(page, 1, 'parac', 'Paracetamol 500 mg tablet')
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page.getByTestId('rx-warning')).toContainText('You have no signature on file')
  // The issued one keeps the signature it was printed with.
  await page.goto(`/prescriptions/print/${id}`)
  await expect(signatureImage(page)).toBeVisible()
})

test('copy last prescription fills a later visit with the earlier one', async ({ page }) => {
  await login(page, 'doctor')
  const patient = await newPatient(page, `Hồ-${unique()}`)
  const first = await visit(page, patient.id, 6)
  const r = await api(page, 'post', `/api/appointments/${first}/prescriptions`, { items: [{ medicine: 'Metformin 500 mg tablet', dose: '1 tablet', route: 'oral', frequency: 'as directed', quantity: '60' }] })
  expect(r.status()).toBe(201)
  // Handed to the patient: a draft never printed is no medicine taken, for the check as for the list.
  const earlier = (await r.json()) as { id: number; version: number }
  expect((await api(page, 'post', `/api/prescriptions/${earlier.id}/print`, { version: earlier.version })).status()).toBe(200)
  const second = await visit(page, patient.id, 6)
  await page.goto(`/appointments/form/${second}`)
  await page.getByRole('button', { name: 'New prescription' }).click()
  await page.getByRole('button', { name: 'Copy last prescription' }).click()
  await expect(page.getByText("The last prescription's medicines were copied.")).toBeVisible()
  const line = page.getByTestId('rx-line').first()
  await expect(line.getByRole('combobox', { name: 'Medicine' })).toHaveValue('Metformin 500 mg tablet')
  await expect(line.getByLabel('Quantity')).toHaveValue('60')
  // The earlier prescription says no duration nor how often (its 60 tablets last a month at
  // twice a day), so whether its supply lasts cannot be told: the same product again is a
  // caution (perhaps a refill), shown without asking for a reason.
  await expect(line.getByTestId('rx-safety')).toContainText('Caution (no reason needed)')
  await expect(line.getByTestId('rx-safety')).toContainText('Duplicate therapy: prescription #')
  await expect(line.getByTestId('rx-safety')).toContainText('also contains Metformin.')
  await expect(line.getByLabel('Reason to prescribe anyway')).toHaveCount(0)
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page.getByTestId('rx-sheet')).toContainText('Metformin 500 mg tablet')
})

test('a blank prescription for no patient prints as a pad and is then marked printed', async ({ page }) => {
  await stubPrint(page)
  await login(page, 'doctor')
  await sidebar(page).getByRole('menuitem', { name: 'Forms' }).click()
  await sidebar(page).getByRole('menuitem', { name: 'Blank Prescription' }).click()
  await expect(page).toHaveURL(/\/forms\/blankPrescription$/)
  const medicine = `Vitamin C 500 mg ${unique()}`
  const line = page.getByTestId('rx-line').first()
  await line.getByRole('combobox', { name: 'Medicine' }).fill(medicine)
  await page.getByRole('button', { name: 'Save and preview' }).click()
  // A line needs a quantity or a duration: said on the line, nothing saved.
  await expect(line.getByText('Give a quantity or a duration.')).toBeVisible()
  await line.getByLabel('Quantity').fill('30')
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page.getByTestId('rx-sheet')).toContainText(medicine)
  await expect(activeView(page).getByText('Not printed', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Issue and print' }).click()
  await expect(page.locator('body')).toHaveAttribute('data-printed', '1')
  await expect(activeView(page).getByText('Printed', { exact: true })).toBeVisible()
  await page.goto('/forms/blankPrescription')
  const item = page.getByTestId('rx-item').filter({ hasText: medicine })
  await expect(item.getByText('Printed', { exact: true })).toBeVisible()
  await expect(item.getByText('No patient (blank pad)')).toBeVisible()
})

test('a nurse sees prescriptions but cannot write one: no menu, no button, 403 from the API', async ({ page }) => {
  await login(page, 'doctor')
  const patient = await newPatient(page, `Vũ-${unique()}`)
  const appointment = await visit(page, patient.id, 5)
  await api(page, 'post', `/api/appointments/${appointment}/prescriptions`, { items: [{ medicine: 'Cetirizine 10 mg tablet', quantity: '10' }] })
  await logout(page, 'E2E doctor')

  await login(page, 'nurse')
  await expect(sidebar(page).getByRole('menuitem', { name: 'Forms' })).toHaveCount(0)
  await page.goto(`/appointments/form/${appointment}`)
  await expect(page.getByTestId('rx-item')).toContainText('Cetirizine 10 mg tablet')
  await expect(page.getByRole('button', { name: 'New prescription' })).toHaveCount(0)
  const r = await api(page, 'post', `/api/appointments/${appointment}/prescriptions`, { items: [{ medicine: 'Morphine', quantity: '10' }] })
  expect(r.status()).toBe(403)
  await page.goto('/forms/blankPrescription')
  await expect(page.getByText('You do not have access to this page')).toBeVisible()
  // Every user reaches their own profile (and password) from the avatar menu.
  await page.getByRole('button', { name: 'Account of E2E nurse' }).click()
  await chooseMenuItem(page, 'E2E nurse')
  await expect(page).toHaveURL(/\/profile\/edit$/)
  await expect(page.getByRole('button', { name: 'Change password' })).toBeVisible()
})

test('a 10 MB or non-image signature is refused and the old one kept', async ({ page }) => {
  await authenticate(page, 'admin')
  await page.goto('/profile/edit')
  await drawSignature(page)
  await page.getByRole('button', { name: 'Save signature' }).click()
  const current = page.getByRole('img', { name: 'Your current signature' })
  await expect(current).toBeVisible()
  const before = await (await api(page, 'get', '/api/get-profile')).json()
  const beforeImage = await (await api(page, 'get', before.signature_url)).body()

  // Through the form: a text file.
  await page.locator('input[type=file][accept*="svg"]').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') })
  await expect(page.getByTestId('signature-error')).toHaveText('A signature must be a PNG, JPEG or SVG image.')
  // Through the API: 10 MB.
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  const big = await page.request.put('/api/profile/signature', {
    headers: { 'X-XSRF-TOKEN': xsrf },
    multipart: { file: { name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([beforeImage, Buffer.alloc(10 << 20)]) } },
  })
  expect(big.status()).toBe(422)
  expect((await big.json()).error).toContain('too large')

  const afterProfile = await (await api(page, 'get', '/api/get-profile')).json()
  expect(afterProfile.signature_url).toBe(before.signature_url)
  expect(Buffer.compare(await (await api(page, 'get', afterProfile.signature_url)).body(), beforeImage)).toBe(0)
  await page.reload()
  await expect(current).toBeVisible()
})

test('changing one\'s password needs the current one and ends one\'s other sessions', async ({ page, browser }) => {
  await authenticate(page, 'visitor')
  const other = await browser.newContext()
  const elsewhere = await other.newPage()
  await login(elsewhere, 'visitor')

  await page.goto('/profile/edit')
  const card = page.locator('.ant-card').filter({ has: page.getByRole('button', { name: 'Change password' }) })
  await card.getByLabel('Current password').fill('not my password')
  await card.getByLabel('New password', { exact: true }).fill('a brand new passphrase')
  await card.getByLabel('Repeat the new password').fill('a brand new passphrase')
  await card.getByRole('button', { name: 'Change password' }).click()
  await expect(card.getByText('The current password is not right.')).toBeVisible()
  await card.getByLabel('Current password').fill(PASSWORD)
  await card.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText('Password changed. Your other sessions have ended.')).toBeVisible()

  expect((await elsewhere.request.get('/api/user')).status()).toBe(401)
  expect((await page.request.get('/api/user')).status()).toBe(200)
  // Back to the run's password for the other tests.
  expect((await api(page, 'post', '/api/profile/password', { current_password: 'a brand new passphrase', new_password: PASSWORD })).status()).toBe(204)
  await other.close()
})

test('an allergy is caught as the medicine is chosen; the line is saved only with a reason, which the print leaves out', async ({ page }) => {
  test.setTimeout(180_000)
  await stubPrint(page)
  await login(page, 'doctor')
  const r = await api(page, 'post', '/api/patients', {
    first_name: 'Mike',
    last_name: `Anderson-${unique()}`,
    birth_date: '1979-02-03',
    sex: 'male',
    history: { allergies: [{ substance: 'Penicillin', reaction: 'anaphylaxis', severity: 'severe' }] },
  })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number; last_name: string }
  const appointment = await visit(page, patient.id, 9)
  await page.goto(`/appointments/form/${appointment}`)
  // The banner names the patient in English order and shows the allergy in red.
  const banner = activeView(page).getByTestId('patient-banner')
  await expect(banner).toContainText(`Mike ${patient.last_name}`)
  await expect(banner.getByTestId('allergies')).toContainText('Penicillin — Severe — anaphylaxis')

  await page.getByRole('button', { name: 'New prescription' }).click()
  await addCatalogueLine(page, 1, 'clavulanic', 'Amoxicillin + clavulanic acid')
  const warning = page.getByTestId('rx-line').first().getByTestId('rx-safety')
  await expect(warning).toContainText('Severe risk')
  await expect(warning).toContainText('Allergy')
  await expect(warning).toContainText('Recorded allergy to Penicillin (Severe): this medicine is one of the Penicillins.')

  // Without a reason the server refuses the line, and nothing is saved.
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page.getByText('This line has a safety warning: give the reason to prescribe it anyway.')).toBeVisible()
  await expect(page).toHaveURL(/\/appointments\/form\//)

  await page.getByLabel('Reason to prescribe anyway').fill('Skin test negative last month')
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page).toHaveURL(/\/prescriptions\/print\/\d+$/)
  const id = Number(page.url().split('/').pop())
  await expect(page.getByTestId('rx-safety-summary')).toContainText('Skin test negative last month')
  const sheet = page.getByTestId('rx-sheet')
  await expect(sheet).toContainText(`Prescription #${id}`)
  await expect(sheet).toContainText('Penicillin — Severe — anaphylaxis')
  await expect(sheet).not.toContainText('Skin test negative')
  await page.getByRole('button', { name: 'Issue and print' }).click()
  await expect(page.locator('body')).toHaveAttribute('data-printed', '1')
  await expect(activeView(page).getByText('Issued', { exact: true })).toBeVisible()

  // The tab is named after the patient.
  await expect(page.getByRole('navigation', { name: 'Open pages' })).toContainText(`Mike ${patient.last_name} · Diagnosis`)
})

test('typed brand names and combination products are read as their ingredients, with graded warnings and interactions', async ({ page }) => {
  await authenticate(page, 'doctor')
  const last = `Brand-${unique()}`
  const r = await api(page, 'post', '/api/patients', {
    first_name: 'Minh',
    last_name: last,
    birth_date: '1985-04-05',
    sex: 'male',
    history: { allergies: [{ substance: 'Augmentin', reaction: 'hives', severity: 'moderate' }, { substance: 'Paracetamol', reaction: '', severity: 'mild' }] },
  })
  expect(r.status()).toBe(201)
  await page.goto('/forms/blankPrescription')
  const view = activeView(page)
  await view.getByRole('combobox', { name: 'Patient' }).fill(last)
  await page.getByRole('option').filter({ hasText: last }).first().click()
  const lines = view.getByTestId('rx-line')
  // A brand typed freely: Amoxiclav is amoxicillin with clavulanate.
  await lines.nth(0).getByRole('combobox', { name: 'Medicine' }).fill('Amoxiclav 625 mg')
  await expect(lines.nth(0).getByTestId('rx-safety')).toContainText('Recorded allergy to Augmentin (Moderate): this medicine contains Amoxicillin.')
  // A combination product: Neozep holds paracetamol.
  await view.getByRole('button', { name: 'Add medicine' }).click()
  await lines.nth(1).getByRole('combobox', { name: 'Medicine' }).fill('Neozep Forte')
  await expect(lines.nth(1).getByTestId('rx-safety')).toContainText('Recorded allergy to Paracetamol (Mild): this medicine contains Paracetamol.')
  await expect(lines.nth(1).getByTestId('rx-safety')).toContainText('Allergy')
  // A cephalosporin with amoxicillin's side chain: avoid unless cleared.
  await view.getByRole('button', { name: 'Add medicine' }).click()
  await lines.nth(2).getByRole('combobox', { name: 'Medicine' }).fill('Cefalexin 500 mg')
  await expect(lines.nth(2).getByTestId('rx-safety')).toContainText('Avoid unless cleared')
  await expect(lines.nth(2).getByTestId('rx-safety')).toContainText('Possible cross-sensitivity: recorded allergy to Augmentin (Moderate). Same side chain as amoxicillin and ampicillin.')
  // An interaction with another line, and a low caution that needs no reason.
  await view.getByRole('button', { name: 'Add medicine' }).click()
  await lines.nth(3).getByRole('combobox', { name: 'Medicine' }).fill('Clopidogrel 75 mg')
  await view.getByRole('button', { name: 'Add medicine' }).click()
  await lines.nth(4).getByRole('combobox', { name: 'Medicine' }).fill('Omeprazole 20 mg')
  const caution = lines.nth(4).getByTestId('rx-safety')
  await expect(caution).toContainText('Caution (no reason needed)')
  await expect(caution).toContainText('Interaction (moderate) with Clopidogrel 75 mg: reduced effect. Prefer an alternative that does not interact.')
  await expect(lines.nth(4).getByLabel('Reason to prescribe anyway')).toHaveCount(0)
})

test('the blank prescription form shows the chosen patient\'s allergies and checks them', async ({ page }) => {
  await authenticate(page, 'doctor')
  const last = `Sulfa-${unique()}`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Lan', last_name: last, birth_date: '1990-01-01', sex: 'female', history: { allergies: [{ substance: 'Sulfonamides', reaction: '', severity: 'moderate' }] } })
  expect(r.status()).toBe(201)
  await page.goto('/forms/blankPrescription')
  const view = activeView(page)
  await view.getByRole('combobox', { name: 'Patient' }).fill(last)
  await page.getByRole('option').filter({ hasText: last }).first().click()
  await expect(view.getByTestId('allergies')).toContainText('Sulfonamides — Moderate')
  await view.getByTestId('rx-line').first().getByRole('combobox', { name: 'Medicine' }).fill('Co-trimoxazole 960 mg')
  await expect(view.getByTestId('rx-safety')).toContainText('Recorded allergy to Sulfonamides (Moderate): this medicine is one of the Sulfonamide antibiotics.')
})

test('a patient never asked about allergies is shown so, and the prescription needs a reason until someone records the answer', async ({ page }) => {
  await authenticate(page, 'doctor')
  const last = `Unasked-${unique()}`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Hoa', last_name: last, birth_date: '1988-08-08', sex: 'female' })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number; mrn: string }
  await page.goto('/forms/blankPrescription')
  const view = activeView(page)
  await view.getByRole('combobox', { name: 'Patient' }).fill(last)
  await page.getByRole('option').filter({ hasText: last }).first().click()
  await expect(view.getByTestId('allergies')).toHaveText(/Allergies not recorded/)
  await view.getByTestId('rx-line').first().getByRole('combobox', { name: 'Medicine' }).fill('Paracetamol 500 mg')
  await expect(view.getByTestId('rx-safety')).toContainText('Nobody has recorded whether this patient has allergies')

  // Recorded as no known allergies on the patient's form: the warning goes, the chart says who recorded it.
  await page.goto(`/masterfile/patient_form/${patient.id}`)
  await page.getByRole('radio', { name: 'No known allergies' }).check()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page).toHaveURL(/\/masterfile\/profile\//)
  await expect(activeView(page).getByTestId('allergies')).toContainText('No known allergies · recorded by doctor')
  const check = await api(page, 'post', '/api/prescriptions/check', { patient_id: patient.id, items: [{ medicine: 'Paracetamol 500 mg', quantity: '10' }] })
  expect(((await check.json()) as { findings: unknown[] }).findings).toEqual([])
})
