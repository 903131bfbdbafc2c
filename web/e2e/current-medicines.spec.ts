import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { activeView, api, day, doctorId, authenticate, newPatient, unique } from './helpers'

/** Serious and critical axe findings within what selector picks. */
async function findings(page: Page, selector: string) {
  const results = await new AxeBuilder({ page }).include(selector).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

// Clinic-day review 2026-11-28, M4: the warfarin a patient takes from a specialist is recorded
// on the chart, and the safety check warns of ibuprofen against it until it is stopped.
test('warfarin recorded from elsewhere warns against ibuprofen until it is stopped', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await authenticate(page, 'doctor')
  const patient = await newPatient(page, `Warfarin-${unique()}`)
  const startsAt = new Date(`${day(0)}T07:40:00`).toISOString()
  const booked = await api(page, 'post', '/api/appointments', { patient_id: patient.id, doctor_id: await doctorId(page), starts_at: startsAt, duration_minutes: 10, type: 'new' })
  expect(booked.status()).toBe(201)
  const appointment = ((await booked.json()) as { id: number }).id

  // The nurse records it on the chart, from the catalogue, with the cardiologist's name.
  const nurse = await (await browser.newContext()).newPage()
  await authenticate(nurse, 'nurse')
  await nurse.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = activeView(nurse).getByTestId('current-medicines')
  await card.getByRole('button', { name: 'Record a medicine' }).click()
  const dialog = nurse.getByRole('dialog')
  await dialog.getByRole('combobox', { name: 'Medicine' }).fill('warfarin')
  await dialog.getByRole('option', { name: 'Warfarin 5 mg' }).first().click()
  await dialog.getByLabel('Prescribed by').fill('Dr Minh, cardiology')
  await dialog.getByLabel('Dose', { exact: true }).fill('1 tablet')
  await dialog.getByLabel('How often').fill('once daily')
  await dialog.getByLabel('Taking it since').fill('2019')
  expect(await findings(nurse, '[role="dialog"]')).toEqual([])
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(card).toContainText('Warfarin 5 mg')
  await expect(card).toContainText('From elsewhere')
  await expect(card).toContainText('Since 2019')
  await expect(card).toContainText('Prescribed by Dr Minh, cardiology')
  expect(await findings(nurse, '#main > div:not([hidden])')).toEqual([])
  await nurse.context().close()

  // The doctor prescribes ibuprofen at the visit: an interaction with the warfarin taken.
  await page.goto(`/appointments/form/${appointment}`)
  const view = activeView(page)
  const still = view.getByTestId('still-taking')
  await expect(still).toContainText('Current medicines: still taking?')
  await expect(still).toContainText('Warfarin 5 mg')
  await view.getByRole('button', { name: 'New prescription' }).click()
  const line = view.getByTestId('rx-line').first()
  await line.getByRole('combobox', { name: 'Medicine' }).fill('Ibuprofen 400 mg')
  const warning = line.getByTestId('rx-safety')
  expect(await findings(page, '#main > div:not([hidden]) [data-testid="still-taking"]')).toEqual([])
  await expect(warning).toContainText(/Interaction \(major\) with Warfarin 5 mg[^,]*, taken \(recorded [^,]+, from elsewhere\)/)

  // Asked "still taking?", the patient says the cardiologist stopped it: the warning goes.
  await still.getByRole('button', { name: /Warfarin 5 mg tablet: stopped/ }).click()
  const stop = page.getByRole('dialog')
  await stop.getByRole('combobox', { name: 'Why was it stopped?' }).selectOption({ label: 'Replaced by another medicine' })
  await stop.getByLabel('Details (optional)').fill('Changed to apixaban by the cardiologist')
  await stop.getByRole('button', { name: 'Stop' }).click()
  await expect(still).not.toContainText('Warfarin 5 mg')
  await expect(warning).toHaveCount(0)
})

// The pharmacist's review of the list: the nurse records what the patient's daughter says
// they take, with its source; the doctor reviews it, and marks an entry the nurse made on the
// wrong patient entered in error — it leaves the list and stays struck out in its history.
test('a nurse records with its source, a doctor reviews it and marks another entered in error', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await authenticate(page, 'doctor')
  const patient = await newPatient(page, `Review-${unique()}`)
  const nurse = await (await browser.newContext()).newPage()
  await authenticate(nurse, 'nurse')
  const wrong = await api(nurse, 'post', `/api/patients/${patient.id}/current-medicines`, { medicine: 'Digoxin 0.25 mg', source: 'elsewhere' })
  expect(wrong.status()).toBe(201)

  await nurse.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = activeView(nurse).getByTestId('current-medicines')
  await card.getByRole('button', { name: 'Record a medicine' }).click()
  const dialog = nurse.getByRole('dialog')
  await dialog.getByRole('combobox', { name: 'Medicine' }).fill('Lisinopril 10 mg')
  await dialog.getByLabel('What for').fill('high blood pressure')
  await dialog.getByRole('combobox', { name: 'Route' }).selectOption({ label: 'oral' })
  await dialog.getByLabel('Taking irregularly').check()
  await dialog.getByRole('combobox', { name: 'Source of information' }).selectOption({ label: 'Relative or carer' })
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(card).toContainText('Lisinopril 10 mg')
  await expect(card).toContainText('Information from: Relative or carer')
  await expect(card).toContainText('For high blood pressure')
  await expect(card.getByTestId('not-reviewed')).toHaveCount(2)
  await expect(card.getByRole('button', { name: /reviewed$/ })).toHaveCount(0)
  expect(await findings(nurse, '#main > div:not([hidden])')).toEqual([])
  await nurse.context().close()

  await page.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const chart = activeView(page).getByTestId('current-medicines')
  await chart.getByRole('button', { name: 'Mark Lisinopril 10 mg reviewed' }).click()
  await expect(chart).toContainText(/Reviewed [^·]+ by E2E doctor/)
  await expect(chart.getByTestId('not-reviewed')).toHaveCount(1)

  await chart.getByRole('button', { name: 'Mark Digoxin 0.25 mg entered in error' }).click()
  const mark = page.getByRole('dialog')
  await mark.getByLabel('Why is it in error?').fill('Recorded on the wrong patient')
  await mark.getByRole('button', { name: 'Mark entered in error' }).click()
  await expect(chart.getByRole('button', { name: 'Stop Digoxin 0.25 mg' })).toHaveCount(0)
  await chart.getByText('1 entered in error').click()
  const entry = chart.getByTestId('in-error-entry')
  await expect(entry.locator('s')).toHaveText('Digoxin 0.25 mg')
  await expect(entry).toContainText('Recorded on the wrong patient (E2E doctor)')
  expect(await findings(page, '#main > div:not([hidden])')).toEqual([])
})

// Clinic-day review 2026-11-29: a deliberate pair (warfarin with an NSAID, INR arranged) is kept
// knowingly by the doctor, with a reason: it no longer counts as one to resolve, and stays in
// view with who kept it and why; the nurse sees it kept and cannot keep one herself.
test('a doctor keeps a list-review pair knowingly, with a reason; the nurse sees it kept', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await authenticate(page, 'doctor')
  const patient = await newPatient(page, `Kept-${unique()}`)
  for (const medicine of ['Warfarin 5 mg', 'Naproxen 250 mg'])
    expect((await api(page, 'post', `/api/patients/${patient.id}/current-medicines`, { medicine, source: 'elsewhere' })).status()).toBe(201)
  await page.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = activeView(page).getByTestId('current-medicines')
  const review = card.getByTestId('list-review')
  await expect(review).toContainText('List review: 1 to resolve')
  await review.getByRole('button', { name: /knowingly/ }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Why both are kept').fill('Three days only, INR checked on Friday')
  expect(await findings(page, '[role="dialog"]')).toEqual([])
  await dialog.getByRole('button', { name: 'Keep both' }).click()
  await expect(review).not.toContainText('to resolve')
  await expect(review.getByTestId('kept-pair')).toContainText(/Kept knowingly by E2E doctor on .+: Three days only, INR checked on Friday/)
  expect(await findings(page, '#main > div:not([hidden])')).toEqual([])

  const nurse = await (await browser.newContext()).newPage()
  await authenticate(nurse, 'nurse')
  await nurse.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const seen = activeView(nurse).getByTestId('current-medicines').getByTestId('list-review')
  await expect(seen.getByTestId('kept-pair')).toContainText('Three days only, INR checked on Friday')
  await expect(seen.getByRole('button', { name: /knowingly/ })).toHaveCount(0)
  await nurse.context().close()
})
