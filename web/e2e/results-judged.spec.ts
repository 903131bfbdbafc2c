import { expect, test } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, openCountingPrints, unique } from './helpers'

// Issue 52 in the browser, in Vietnamese: a 7-year-old's potassium of 7,0 is critical (the
// analyte's children's limit, though adults' bands do not cover him); a TSH typed "1.500" is
// refused (a point before three digits may group thousands), never read as 1.5; "<0,01" is
// kept with its comparator; and a TSH no child's band covers says so under the range.
test('a child is flagged by the analyte’s limits, a Vietnamese thousands dot is refused, a censored value kept', async ({ browser }) => {
  test.setTimeout(120_000)
  const doc = await openCountingPrints(browser, 'doctor')
  const nurse = await openCountingPrints(browser, 'nurse', 'vi')
  const born = new Date()
  born.setFullYear(born.getFullYear() - 7)
  const p = await api(doc, 'post', '/api/patients', {
    first_name: 'Bảo',
    last_name: `Trẻ ${unique()}`,
    birth_date: born.toISOString().slice(0, 10),
    sex: 'male',
    history: { allergy_status: 'none' },
  })
  expect(p.status()).toBe(201)
  const patient = (await p.json()) as { id: number }
  const appt = await bookFirstFree(doc, patient.id, await doctorId(doc), day(7), 8)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Mệt', orders: [{ code: 'ELEC' }, { code: 'TSH' }] })).status()).toBe(200)
  const orders = ((await (await api(doc, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { id: number; test: string }[] }).data
  const elec = orders.find((o) => o.test === 'ELEC')!
  const tsh = orders.find((o) => o.test === 'TSH')!

  // Potassium 7,0 in a child of 7: critical high, by the analyte's limit for children.
  await nurse.goto(`/results/orders/${elec.id}`)
  let view = activeView(nurse)
  await view.getByLabel('Kali', { exact: true }).fill('7,0')
  await view.getByTestId('save-final').click()
  await expect(view.locator('[data-flag="HH"]').first()).toBeVisible()
  // The doctor acknowledges it (the alert must not wait over the next tests' screens).
  const alerts = (await (await api(doc, 'get', '/api/results/alerts')).json()) as { data: { id: number; patient: { id: number } }[] }
  const alert = alerts.data.find((a) => a.patient.id === patient.id)!
  expect(
    (await api(doc, 'post', `/api/results/alerts/${alert.id}/acknowledge`, { contact: 'phone', action: 'Sent to the emergency department', received_by: 'system' })).status(),
  ).toBe(204)

  // TSH "1.500": the form says why before saving, and the server refuses it.
  await nurse.goto(`/results/orders/${tsh.id}`)
  view = activeView(nurse)
  const field = view.getByLabel('TSH', { exact: true })
  await field.fill('1.500')
  await expect(view.getByTestId('number-note')).toContainText('phân cách hàng nghìn')
  await view.getByTestId('save-final').click()
  await expect(view.getByText(/viết 1500/).first()).toBeVisible()
  const none = (await (await api(doc, 'get', `/api/lab-orders/${tsh.id}`)).json()) as { results: unknown[] }
  expect(none.results).toHaveLength(0)

  // "<0,01" is kept with its comparator; no reference range covers a child's TSH, and the
  // screen says so rather than leaving the range blank.
  await field.fill('<0,01')
  await view.getByTestId('save-final').click()
  await expect(view.getByText('< 0,01').first()).toBeVisible()
  await expect(view.locator('[data-range-note="no_band"]').first()).toContainText('Không có khoảng tham chiếu')
  const saved = (await (await api(doc, 'get', `/api/lab-orders/${tsh.id}`)).json()) as { results: { value: string; comparator: string; range: { note: string } }[] }
  expect(saved.results[0]).toMatchObject({ value: '0.01', comparator: '<', range: { note: 'no_band' } })
})
