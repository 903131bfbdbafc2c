import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, newPatient, openCountingPrints, unique } from './helpers'

// What the patient can see, on the chart: the doctor records and reviews a panel, which the
// clinic's default rule then shows to the patient; the doctor holds it with a reason, and the
// chart says "not visible: held", who held it, the kind of reason and why; as the patient sees
// it, only "your doctor will discuss this with you". Released again (the potassium is high: the
// chart asks first), it is seen. The card passes axe.
test('the doctor holds a reviewed result from the patient on the chart, then releases it again', async ({ browser }) => {
  test.setTimeout(120_000)
  const doc = await openCountingPrints(browser, 'doctor')
  const patient = await newPatient(doc, `Release ${unique()}`)
  const appt = await bookFirstFree(doc, patient.id, await doctorId(doc), day(5), 9)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Tired', orders: [{ code: 'BMP', note: '' }] })).status()).toBe(200)
  const orders = (await (await api(doc, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { id: number; version: number }[] }
  const order = orders.data[0]
  const recorded = await api(doc, 'put', `/api/lab-orders/${order.id}/results`, {
    version: order.version,
    final: true,
    results: [
      { analyte: 'GLU', value: '5.2', unit: 'mmol/L' },
      { analyte: 'K', value: '5.8', unit: 'mmol/L' },
      { analyte: 'CREA', value: '90', unit: 'umol/L' },
    ],
  })
  expect(recorded.status()).toBe(200)
  const after = (await (await api(doc, 'get', `/api/lab-orders/${order.id}`)).json()) as { version: number }
  expect((await api(doc, 'post', '/api/results/review', { orders: [{ id: order.id, version: after.version }] })).status()).toBe(200)

  await doc.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = activeView(doc).getByTestId('patient-release')
  const item = card.getByTestId('release-item').filter({ hasText: 'Basic metabolic panel' })
  await expect(item).toContainText('Patient can see it')
  await expect(item).toContainText("Released by the clinic's rule")
  await expect(item).toContainText('Not opened by the patient')

  // Held, in a dialog that asks what the patient sees, the kind of reason, the reason and when to review it.
  await item.getByRole('button', { name: 'Hold Basic metabolic panel from the patient' }).click()
  const dialog = doc.getByRole('dialog', { name: 'Hold Basic metabolic panel' })
  await expect(dialog).toContainText('The patient reads only “Your doctor will discuss this with you.”')
  await expect(dialog).toContainText('The patient sees nothing, not even that it exists.')
  await dialog.getByRole('button', { name: 'Hold' }).click()
  await expect(dialog).toContainText('Choose what the patient sees.')
  await dialog.getByRole('radio', { name: /Discuss first/ }).check()
  await dialog.getByRole('combobox', { name: 'Reason' }).selectOption({ label: 'To discuss in person' })
  await dialog.getByLabel('In your words').fill('Potassium to discuss at the follow-up visit')
  await dialog.getByRole('button', { name: 'Hold' }).click()
  await expect(dialog).toBeHidden()
  await expect(item).toContainText('Not visible: held')
  await expect(item).toContainText('Potassium to discuss at the follow-up visit')
  await expect(item).toContainText('Held to discuss by E2E doctor')
  await expect(item).toContainText('To discuss in person')
  await expect(item).toContainText('review by')

  const axe = await new AxeBuilder({ page: doc }).include('#main > div:not([hidden]) [data-testid=patient-release]').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])

  // As the patient sees it: only the sentence, no value.
  await card.getByRole('button', { name: 'As the patient sees it' }).click()
  const preview = doc.getByRole('dialog', { name: 'What the patient sees' })
  await expect(preview).toContainText('Your doctor will discuss this with you.')
  await expect(preview).not.toContainText('5.8')
  await preview.getByRole('button', { name: 'Close' }).click()

  // Released again, after a confirmation (a value outside the usual range): seen, by a doctor.
  await item.getByRole('button', { name: 'Release Basic metabolic panel to the patient' }).click()
  const confirm = doc.getByRole('alertdialog', { name: 'Release Basic metabolic panel to the patient?' })
  await expect(confirm).toContainText('A value is outside the usual range')
  await confirm.getByRole('button', { name: 'Release', exact: true }).click()
  await expect(item).toContainText('Patient can see it')
  await expect(item).toContainText('Released by a doctor')
})
