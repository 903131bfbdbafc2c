import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { activeView, api, authenticate, bookFirstFree, day, doctorId, unique } from './helpers'

// A one-year-old boy's vitals at two completed visits (set up through the API), then his chart:
// the Growth card draws the WHO curves and lists both measurements with their z-scores; 7.7 kg
// at 12 months is WHO's −2 SD weight-for-age, so his first row is flagged underweight; the
// latest measurement's flags stand above. The card passes axe.
test("a child's vitals at two visits show on the chart's Growth card with z-scores", async ({ page }) => {
  test.setTimeout(40_000)
  await authenticate(page, 'doctor')
  const created = await api(page, 'post', '/api/patients', { first_name: 'Minh', last_name: `Growth ${unique()}`, birth_date: day(-365), sex: 'male', history: { allergy_status: 'none' } })
  expect(created.status()).toBe(201)
  const patient = (await created.json()) as { id: number; mrn: string }
  const doctor = await doctorId(page)
  for (const [offset, vitals] of [
    [1, { weight: 7.7, height: 75.7, head_circumference: 46.1 }],
    [2, { weight: 8.1, height: 76.2 }],
  ] as const) {
    const appt = await bookFirstFree(page, patient.id, doctor, day(offset), 9)
    for (const step of ['arrive', 'start']) expect((await api(page, 'post', `/api/appointments/${appt}/${step}`, {})).status()).toBe(200)
    expect((await api(page, 'put', `/api/appointments/${appt}/visit/vitals`, { version: 0, vitals })).status()).toBe(200)
    expect((await api(page, 'post', `/api/appointments/${appt}/complete`, {})).status()).toBe(200)
  }

  await page.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  const card = activeView(page).getByTestId('growth-card')
  await expect(card.getByRole('heading', { name: 'Growth' })).toBeVisible({ timeout: 30_000 })
  await expect(card.getByRole('img', { name: /Weight-for-age of Minh .* on the WHO SD curves/ })).toBeVisible()
  const rows = card.getByRole('table').getByRole('row').filter({ has: page.getByRole('cell') })
  await expect(rows).toHaveCount(2)
  await expect(rows.first()).toContainText(/-2\.0\d/)
  await expect(rows.first()).toContainText('Underweight')
  await expect(card.getByTestId('growth-flag').first()).toContainText('Wasting') // the latest measurement's flags, above

  await card.getByRole('radiogroup', { name: 'Indicator' }).getByText('Length/height-for-age', { exact: true }).click()
  await expect(card.getByRole('columnheader', { name: 'z (LHFA)' })).toBeVisible()

  const axe = await new AxeBuilder({ page }).include('#main > div:not([hidden]) [data-testid=growth-card]').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})
