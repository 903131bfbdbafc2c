import { expect, test } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, newPatient, openCountingPrints, unique } from './helpers'

// The whole results loop in two browsers: the doctor orders electrolytes on the visit; the
// nurse, on the order's page, marks the specimen collected and records a critical potassium;
// the doctor's open browser (on the dashboard, doing nothing) shows the alert within seconds;
// the doctor acknowledges it (how the patient was reached, what was done, the read-back) and
// marks the result reviewed from the review queue.
test('a critical potassium reaches the ordering doctor, is acknowledged and reviewed', async ({ browser }) => {
  test.setTimeout(120_000)
  const doc = await openCountingPrints(browser, 'doctor')
  const nurse = await openCountingPrints(browser, 'nurse')
  const patient = await newPatient(doc, `Kalium ${unique()}`)
  const appt = await bookFirstFree(doc, patient.id, await doctorId(doc), day(6), 8)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Weakness', orders: [{ code: 'ELEC', note: 'on diuretics' }] })).status()).toBe(200)
  await doc.goto('/dashboard')
  await expect(activeView(doc).getByTestId('figure-results-review')).toBeVisible()

  // The nurse opens the visit, then the order from its tests and results.
  await nurse.goto(`/appointments/form/${appt}`)
  await activeView(nurse).getByTestId('visit-results').getByTestId('order-ELEC').click()
  await expect(nurse).toHaveURL(/\/results\/orders\/\d+$/)
  const order = activeView(nurse)
  await order.getByTestId('collect').click()
  await expect(order.locator('[data-status="collected"]').first()).toBeVisible()
  // A decimal comma is refused in English, with a message under the field.
  await order.getByLabel('Potassium', { exact: true }).fill('6,8')
  await order.getByTestId('save-final').click()
  await expect(order.getByText('Write the decimal point as a full stop: 5.6, not 5,6.').first()).toBeVisible()
  await order.getByLabel('Potassium', { exact: true }).fill('6.8')
  await order.getByLabel('Sodium', { exact: true }).fill('139')
  await order.getByTestId('save-final').click()
  await expect(order.locator('[data-flag="HH"]').first()).toBeVisible()
  await expect(order.locator('[data-status="final"]').first()).toBeVisible()
  // The nurse is told at once that the doctor is alerted, and when to call.
  await expect(nurse.getByText(/has been alerted in EMR/)).toBeVisible()

  // The doctor's idle browser: the alert opens by itself over the live channel.
  const dialog = doc.getByRole('dialog', { name: 'Critical result' })
  await expect(dialog).toBeVisible({ timeout: 15_000 })
  await expect(dialog.getByTestId('critical-value')).toHaveText('6.8 mmol/L')
  await expect(doc.getByTestId('critical-banner')).toContainText('Kalium')
  // Acknowledging needs how the patient was reached and what was done.
  await dialog.getByTestId('critical-acknowledge').click()
  await expect(dialog.getByText('Choose how the patient was reached.')).toBeVisible()
  await dialog.getByLabel('By phone').check()
  await dialog.getByLabel('What was done').fill('Patient called back; sent to the emergency department for an ECG')
  // Taken by telephone: the read-back is required.
  await dialog.getByLabel('By telephone (from the laboratory or a colleague)').check()
  await dialog.getByTestId('critical-acknowledge').click()
  await expect(dialog.getByText('A result received by telephone must be read back', { exact: false })).toBeVisible()
  await dialog.getByLabel('Read-back').fill('K 6.8 read back to the lab')
  await dialog.getByTestId('critical-acknowledge').click()
  await expect(dialog).toBeHidden()
  await expect(doc.getByTestId('critical-banner')).toBeHidden()

  // The result waits in the doctor's review queue, critical first; the doctor reviews it.
  await doc.goto('/results/review')
  const queue = activeView(doc)
  const row = queue.getByRole('row').filter({ hasText: 'Kalium' })
  await expect(row).toContainText('Critical')
  await row.getByRole('checkbox').check()
  await queue.getByLabel('Comment (optional)').fill('Repeat electrolytes tomorrow')
  await queue.getByTestId('mark-reviewed').click()
  await expect(row).toBeHidden()
  const orders = (await (await api(doc, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { status: string; review_comment: string }[] }
  expect(orders.data[0]).toMatchObject({ status: 'reviewed', review_comment: 'Repeat electrolytes tomorrow' })
  // The acknowledgement is on the critical results report.
  const report = (await (await api(doc, 'get', '/api/results/alerts/report')).json()) as { data: { contact: string; received_by: string; read_back: string; patient: { id: number } }[] }
  expect(report.data.find((a) => a.patient.id === patient.id)).toMatchObject({ contact: 'phone', received_by: 'telephone', read_back: 'K 6.8 read back to the lab' })
})

// The administrator changes potassium's adult range in the results catalogue; a bound out of
// order is refused under its field, and the saved range shows in the list.
test('the results catalogue: an analyte edited, a bad range refused', async ({ browser }) => {
  const admin = await openCountingPrints(browser, 'admin')
  await admin.goto('/administrator/results-catalogue')
  const view = activeView(admin)
  await view.getByRole('searchbox', { name: 'Search by name, code or LOINC' }).fill('potassium')
  await view.getByRole('button', { name: 'Potassium', exact: true }).click()
  const drawer = admin.getByRole('dialog', { name: /Potassium · K/ })
  const adult = drawer.getByLabel('Low', { exact: true }).last()
  await adult.fill('5.5')
  await drawer.getByTestId('save-analyte').click()
  await expect(drawer.getByText('The low limit must be below the high limit.').first()).toBeVisible()
  await adult.fill('3.4')
  await drawer.getByTestId('save-analyte').click()
  await expect(drawer).toBeHidden()
  await expect(view.locator('tr[data-row-key="K"]')).toContainText('3.4–5.1')
  // Put it back for the other tests of this run.
  await view.getByRole('button', { name: 'Potassium', exact: true }).click()
  await admin.getByRole('dialog', { name: /Potassium · K/ }).getByLabel('Low', { exact: true }).last().fill('3.5')
  await admin.getByRole('dialog', { name: /Potassium · K/ }).getByTestId('save-analyte').click()
  await expect(view.locator('tr[data-row-key="K"]')).toContainText('3.5–5.1')
})
