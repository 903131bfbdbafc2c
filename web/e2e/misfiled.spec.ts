import { expect, test, type Page } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, newPatient, openCountingPrints, toasts, unique } from './helpers'

/** A visit of the patient in progress with a BMP ordered; the order. */
async function bmpOrdered(doc: Page, patientId: number, hour: number) {
  const appt = await bookFirstFree(doc, patientId, await doctorId(doc), day(6), hour)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Check-up', orders: [{ code: 'BMP', note: '' }] })).status()).toBe(200)
  const orders = (await (await api(doc, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { id: number; version: number }[] }
  return orders.data[0]
}

// C3 of the laboratory clinician's review: a critical potassium recorded against the wrong
// patient and withdrawn waits on the results desk's list; the nurse finds the patient the
// sample came from and refiles it on her order of the same test, from the keyboard-usable
// dialog (shown in English and Russian); the value lands there, judged for her.
test('a misfiled critical potassium is refiled on the right patient’s order', async ({ browser }) => {
  test.setTimeout(180_000)
  const doc = await openCountingPrints(browser, 'doctor')
  const nurse = await openCountingPrints(browser, 'nurse')
  const name = unique()
  const wrong = await newPatient(doc, `Wrongly ${name}`)
  const right = await newPatient(doc, `Rightful ${name}`)
  let o = await bmpOrdered(doc, wrong.id, 8)
  // The right patient's order is placed before the sample is taken: only such an order can hold it.
  const target = await bmpOrdered(doc, right.id, 11)
  o = (await (await api(nurse, 'post', `/api/lab-orders/${o.id}/collect`, { version: o.version })).json()) as { id: number; version: number }
  const rec = await api(nurse, 'put', `/api/lab-orders/${o.id}/results`, {
    version: o.version,
    final: true,
    results: [
      { analyte: 'K', unit: 'mmol/L', value: '7.2' },
      { analyte: 'NA', unit: 'mmol/L', value: '140' },
    ],
  })
  expect(rec.status()).toBe(200)
  const recorded = ((await rec.json()) as { order: { version: number } }).order
  expect(
    (await api(nurse, 'post', `/api/lab-orders/${o.id}/retract`, { version: recorded.version, category: 'wrong_patient', reason: 'label swapped with the next patient’s tube' })).status(),
  ).toBe(200)
  const list = (await (await api(nurse, 'get', '/api/results/misfiled?per_page=50')).json()) as { data: { result_id: number; result: { analyte: string }; patient: { id: number } }[] }
  const k = list.data.find((m) => m.patient.id === wrong.id && m.result.analyte === 'K')!
  const na = list.data.find((m) => m.patient.id === wrong.id && m.result.analyte === 'NA')!

  const resolveOn = async (page: Page, id: number, outcome: string, patient: string, orderLabel: RegExp, shot: string) => {
    await page.goto('/results/overdue')
    const view = activeView(page)
    await view.getByTestId(`misfiled-resolve-${id}`).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toBeVisible()
    // The outcome from the keyboard: a radio group.
    await dialog.getByRole('radio', { name: new RegExp(outcome) }).focus()
    await page.keyboard.press('Space')
    await dialog.getByRole('combobox').fill(`Rightful ${name}`)
    await page.getByText(new RegExp(`Rightful ${name}`)).last().click()
    await dialog.getByRole('radio', { name: orderLabel }).check()
    await page.setViewportSize({ width: 1366, height: 900 })
    await page.screenshot({ path: `test-results/${shot}.png` })
    return dialog
  }

  const dialog = await resolveOn(nurse, k.result_id, "Recorded on the right patient's order", `Rightful ${name}`, new RegExp(`No\\. ${target.id} `), 'misfiled-resolve-en')
  await dialog.getByRole('button', { name: 'Mark resolved' }).click()
  await expect(toasts(nurse).getByText("Recorded on the right patient's order")).toBeVisible()
  const refiled = (await (await api(nurse, 'get', `/api/lab-orders/${target.id}`)).json()) as { results: { analyte: string; entered: string; flag: string; refiled_from: number }[] }
  expect(refiled.results).toEqual([expect.objectContaining({ analyte: 'K', entered: '7.2', flag: 'HH', refiled_from: k.result_id })])
  // The refiled critical reaches the ordering doctor as her patient's; the withdrawn one waits
  // too, for her to see it was withdrawn. She acknowledges both (an alert would otherwise stand
  // over the next tests' screens).
  const alerts = (await (await api(doc, 'get', '/api/results/alerts')).json()) as { data: { id: number; patient: { id: number } }[] }
  const ours = alerts.data.filter((a) => a.patient.id === wrong.id || a.patient.id === right.id)
  expect(ours.map((a) => a.patient.id).sort()).toEqual([wrong.id, right.id].sort())
  for (const a of ours) {
    // The withdrawn one is closed by saying what followed its withdrawal: nothing had been done.
    const body = a.patient.id === wrong.id ? { followup: 'no_action_needed' } : { contact: 'phone', action: 'Asked to attend today for a repeat potassium', received_by: 'system' }
    const ack = await api(doc, 'post', `/api/results/alerts/${a.id}/acknowledge`, body)
    expect(ack.status(), await ack.text()).toBe(204)
  }

  // The same dialog in Russian (the sodium), looked at, not sent.
  const ru = await openCountingPrints(browser, 'nurse', 'ru')
  await resolveOn(ru, na.result_id, 'Внесено в назначение нужного пациента', `Rightful ${name}`, new RegExp(`№ ${target.id} `), 'misfiled-resolve-ru')
})
