import { expect, test } from '@playwright/test'
import { api, authenticate, bookFirstFree, day, doctorId, unique } from './helpers'

// Issue 59, item 6: a child with a recorded weight; prescribing paracetamol syrup by weight
// fills the dose from the weight, and the line keeps the numbers it was worked from.
test('a child weighed today is prescribed paracetamol syrup by weight: the dose fills in mL', async ({ page }) => {
  test.setTimeout(40_000)
  await authenticate(page, 'doctor')
  const born = new Date()
  born.setFullYear(born.getFullYear() - 2)
  const r = await api(page, 'post', '/api/patients', { first_name: 'Bé', last_name: `Lan-${unique()}`, birth_date: born.toISOString().slice(0, 10), sex: 'female', history: { allergy_status: 'none' } })
  const child = (await r.json()) as { id: number }
  const visit = await bookFirstFree(page, child.id, await doctorId(page), day(0), 9)
  expect((await api(page, 'post', `/api/appointments/${visit}/arrive`, {})).status()).toBe(200)
  expect((await api(page, 'put', `/api/appointments/${visit}/visit/vitals`, { version: 0, vitals: { weight: 12 } })).status()).toBe(200)

  await page.goto(`/appointments/form/${visit}`)
  await page.getByRole('button', { name: 'New prescription' }).click()
  const line = page.getByTestId('rx-line').first()
  await line.getByRole('combobox', { name: 'Medicine' }).fill('paracet')
  await line.getByRole('option', { name: 'Paracetamol 120 mg/5 mL syrup' }).first().click()
  await line.getByRole('checkbox', { name: 'Dose by weight' }).check()
  const panel = line.getByRole('region', { name: 'Dose by weight, medicine 1' })
  await expect(panel).toContainText(`Weight 12 kg on ${day(0)}.`)
  await expect(panel.getByLabel('Dose, mg/kg')).toHaveValue('15')
  await expect(panel.getByTestId('dose-by-weight')).toContainText('Dose 180 mg = 7.5 mL.')
  await expect(line.getByLabel('Dose', { exact: true })).toHaveValue('7.5 mL')
  await line.getByLabel('Duration').fill('3 days')
  await page.getByRole('button', { name: 'Save and preview' }).click()
  await expect(page).toHaveURL(/\/prescriptions\/print\/\d+$/)
  const saved = (await (await api(page, 'get', `/api/prescriptions/${page.url().split('/').pop()}`)).json()) as { items: { dose: string; by_weight?: Record<string, unknown> }[] }
  expect(saved.items[0].dose).toBe('7.5 mL')
  expect(saved.items[0].by_weight).toMatchObject({ mg_per_kg: 15, dose_mg: 180, weight_kg: 12, weight_on: day(0) })
})
