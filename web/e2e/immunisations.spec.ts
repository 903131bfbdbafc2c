import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { activeView, api, authenticate, day, unique } from './helpers'

/** Serious and critical axe findings within what selector picks. */
async function findings(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

interface Recommendation {
  antigen: string
  dose_number: number
  doses: number
  status: string
  vaccines: string[]
}

// Issue 59: a nurse opens a baby's chart, gives the dose the forecast says is due, and sees it
// on the record and the forecast move on to the next dose.
test('a nurse gives the due dose on a child’s chart; it is on the record and the forecast moves on', async ({ page }) => {
  // The desk registers the baby (a nurse may not); the nurse gives the dose.
  await authenticate(page, 'receptionist')
  const made = await api(page, 'post', '/api/patients', { first_name: 'An', last_name: `Baby-${unique()}`, birth_date: day(-75), sex: 'female', history: { allergy_status: 'none' } })
  expect(made.status()).toBe(201)
  const child = (await made.json()) as { id: number; mrn: string }
  await authenticate(page, 'nurse')
  // The dose to give: the first the forecast says is due or overdue, by one of its products.
  const read = (await (await api(page, 'get', `/api/patients/${child.id}/immunisations`)).json()) as { forecast: { recommendations: Recommendation[] } }
  // Not BCG: at 75 days it asks for a negative tuberculin test first (screening_rules.tsv).
  const next = read.forecast.recommendations.find((r) => ['due', 'overdue'].includes(r.status) && r.vaccines.length > 0 && r.antigen !== 'tb')
  expect(next, 'a 75-day-old child has a dose due').toBeTruthy()
  const catalogue = (await (await api(page, 'get', '/api/immunisation/catalogue')).json()) as { vaccines: { key: string; name: string }[]; antigens: { key: string; name: string }[] }
  const vaccine = catalogue.vaccines.find((v) => v.key === next!.vaccines[0])!
  const antigen = catalogue.antigens.find((a) => a.key === next!.antigen)!

  await page.goto(`/masterfile/profile/${child.id}/${child.mrn}`)
  const card = activeView(page).getByTestId('immunisations')
  const row = card.getByTestId('forecast').getByRole('row').filter({ hasText: antigen.name }).first()
  await expect(row).toContainText(`${next!.dose_number} of ${next!.doses}`)

  await card.getByRole('button', { name: 'Give a dose' }).click()
  const dialog = page.getByRole('dialog', { name: 'Give a dose' })
  await dialog.getByRole('combobox', { name: 'Vaccine' }).fill(vaccine.name)
  await dialog.getByRole('option', { name: vaccine.name, exact: true }).click()
  await dialog.getByLabel('Lot number').fill('E2E-LOT-1')
  // A dose given here needs its lot's expiry: Save without it is refused where it is typed.
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText("Enter the lot's expiry date.")).toBeVisible()
  await dialog.getByLabel('Lot expiry').fill(day(365))
  await dialog.getByLabel('Lot expiry').press('Tab')
  // The route is the product's, the site the thigh for a baby under 12 months.
  await expect(dialog.getByLabel('Site')).toHaveValue('left_thigh')
  // The screening before the dose: the temperature, and the questions for this vaccine answered no.
  await dialog.getByLabel('Temperature (°C)').fill('36.7')
  for (const q of ['Fever (38.0 °C or more) or a low temperature (35.5 °C or less)?', 'A moderate or severe acute illness, or a chronic one getting worse?', 'Abnormal heart or lung sounds?', 'Abnormal consciousness (drowsy, irritable, convulsing)?', 'A severe reaction (anaphylaxis, or another reaction of grade III or worse) after an earlier dose of a vaccine with the same antigens?']) {
    await dialog.getByRole('group', { name: q }).getByText('No', { exact: true }).click()
  }
  expect(await findings(page, '[role="dialog"]')).toEqual([])
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()

  // On the record, given by the nurse with its lot; the forecast is at the antigen's next dose.
  const dose = card.getByTestId('record').getByTestId('dose').filter({ hasText: vaccine.name })
  await expect(dose).toContainText('Lot E2E-LOT-1')
  await expect(dose).toContainText('Given by E2E nurse')
  // The screening is stored with the dose and read back on it.
  await dose.getByText('Screening before the dose: 5 answers, 0 yes').click()
  await expect(dose.getByTestId('screening-summary')).toContainText('Abnormal heart or lung sounds? No')
  await expect(row).not.toContainText(`${next!.dose_number} of ${next!.doses}`)
  expect(await findings(page, '[data-testid="immunisations"]')).toEqual([])
})

// The nurse's review: a fever at the screening defers the dose ("tạm hoãn"), recorded with the
// screening and a day to come back; the forecast says the dose is deferred and due from then.
test('a fever at the screening defers the dose to a day to come back', async ({ page }) => {
  await authenticate(page, 'receptionist')
  const made = await api(page, 'post', '/api/patients', { first_name: 'Minh', last_name: `Baby-${unique()}`, birth_date: day(-75), sex: 'male', history: { allergy_status: 'none' } })
  expect(made.status()).toBe(201)
  const child = (await made.json()) as { id: number; mrn: string }
  await authenticate(page, 'nurse')
  const read = (await (await api(page, 'get', `/api/patients/${child.id}/immunisations`)).json()) as { forecast: { recommendations: Recommendation[] } }
  const next = read.forecast.recommendations.find((r) => ['due', 'overdue'].includes(r.status) && r.vaccines.length > 0 && r.antigen !== 'tb')!
  const catalogue = (await (await api(page, 'get', '/api/immunisation/catalogue')).json()) as { vaccines: { key: string; name: string }[]; antigens: { key: string; name: string }[] }
  const vaccine = catalogue.vaccines.find((v) => v.key === next.vaccines[0])!
  const antigen = catalogue.antigens.find((a) => a.key === next.antigen)!

  await page.goto(`/masterfile/profile/${child.id}/${child.mrn}`)
  const card = activeView(page).getByTestId('immunisations')
  await card.getByRole('button', { name: 'Give a dose' }).click()
  const dialog = page.getByRole('dialog', { name: 'Give a dose' })
  await dialog.getByRole('combobox', { name: 'Vaccine' }).fill(vaccine.name)
  await dialog.getByRole('option', { name: vaccine.name, exact: true }).click()
  await dialog.getByLabel('Temperature (°C)').fill('38.6')
  // The check stops the dose for the fever; the nurse defers it instead.
  await dialog.getByTestId('give-defer').click()
  const defer = page.getByRole('dialog', { name: 'Defer every vaccine' })
  await expect(defer.getByLabel('Reason')).not.toHaveValue('')
  await defer.getByLabel('Come back on').fill(day(7))
  await defer.getByLabel('Come back on').press('Tab')
  expect(await findings(page, '[role="dialog"]')).toEqual([])
  await defer.getByRole('button', { name: 'Defer' }).click()
  await expect(defer).toBeHidden()
  await expect(dialog).toBeHidden()

  const item = card.getByTestId('exclusions').getByTestId('exclusion').first()
  // A fever is about the child: every vaccine waits (the default for an unwell child).
  await expect(item).toContainText('Deferred')
  await expect(item).toContainText('Every vaccine')
  await expect(item).toContainText('come back on')
  const row = card.getByTestId('forecast').getByRole('row').filter({ hasText: antigen.name }).first()
  await expect(row).toContainText('Deferred')
  const after = (await (await api(page, 'get', `/api/patients/${child.id}/immunisations`)).json()) as { forecast: { recommendations: (Recommendation & { due_on: string })[] } }
  const deferred = after.forecast.recommendations.find((r) => r.antigen === next.antigen)!
  expect(deferred.status).toBe('deferred')
  expect(deferred.due_on).toBe(day(7))
  expect(await findings(page, '[data-testid="immunisations"]')).toEqual([])
})

// The nurse's review: a serious reaction is reported after it was recorded; its report's day is
// added to the saved reaction, and the chart stops marking it unreported.
test('the report of a serious reaction is added after it was recorded', async ({ page }) => {
  await authenticate(page, 'receptionist')
  const made = await api(page, 'post', '/api/patients', { first_name: 'Hoa', last_name: `Baby-${unique()}`, birth_date: day(-75), sex: 'female', history: { allergy_status: 'none' } })
  const child = (await made.json()) as { id: number; mrn: string }
  await authenticate(page, 'nurse')
  const no = { fever: false, acute_illness: false, abnormal_heart_lung: false, abnormal_consciousness: false, previous_severe_reaction: false }
  const given = await api(page, 'post', `/api/patients/${child.id}/immunisations`, { kind: 'given', vaccine: 'ipv', occurred_on: day(-2), lot: 'E2E-2', expiry: day(300), screening: no })
  expect(given.status(), await given.text()).toBe(201)
  const dose = (await given.json()) as { id: number }
  const reacted = await api(page, 'post', `/api/immunisations/${dose.id}/reactions`, { onset_on: day(-2), reaction: 'seizure', severity: 'severe', serious: true, outcome: 'recovering' })
  expect(reacted.status(), await reacted.text()).toBe(201)

  await page.goto(`/masterfile/profile/${child.id}/${child.mrn}`)
  const reaction = activeView(page).getByTestId('immunisations').getByTestId('reaction').first()
  await expect(reaction.getByTestId('unreported')).toBeVisible()
  await reaction.getByRole('button', { name: /Record the report or outcome/ }).click()
  const dialog = page.getByRole('dialog', { name: /report and outcome/ })
  await dialog.getByLabel('Reported on').fill(day(-1))
  await dialog.getByLabel('Reported on').press('Tab')
  await dialog.getByLabel('Reported to').fill('District health centre')
  await dialog.getByLabel('Outcome').selectOption('recovered')
  expect(await findings(page, '[role="dialog"]')).toEqual([])
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(reaction.getByTestId('unreported')).toHaveCount(0)
  await expect(reaction).toContainText('District health centre')
})
