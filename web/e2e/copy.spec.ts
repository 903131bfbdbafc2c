import { expect, test } from '@playwright/test'
import { authenticate, dataRows } from './helpers'
import { copyPort } from './ports'

// A clinic moved from SQLite to PostgreSQL with `emr copy` (e2e/serve-copy.sh) works in the
// browser: its staff log in, find a patient and open the chart with the signed visits.
test.skip(!process.env.EMR_TEST_POSTGRES_URL, 'needs PostgreSQL (EMR_TEST_POSTGRES_URL)')
test.use({ baseURL: `http://127.0.0.1:${copyPort}` })

test('a clinic copied onto PostgreSQL: log in, search, open a chart with its visits', async ({ page }) => {
  await authenticate(page, 'moved')
  const patients = await (await page.request.get('/api/patients?per_page=50&sort=mrn')).json()
  expect(patients.meta?.total ?? patients.total).toBeGreaterThan(9000)
  let chart: { id: number; mrn: string; last_name: string } | undefined
  for (const p of patients.data) {
    const visits = await (await page.request.get(`/api/appointments?patient_id=${p.id}&status=completed`)).json()
    if (visits.data.length > 0) {
      chart = p
      break
    }
  }
  expect(chart, 'a patient with a completed visit').toBeDefined()
  await page.goto('/masterfile/patients')
  await page.getByRole('searchbox', { name: 'Search patients' }).fill(chart!.mrn)
  await expect(dataRows(page)).toHaveCount(1)
  await dataRows(page).getByRole('link').first().click()
  await expect(page).toHaveURL(new RegExp(`/masterfile/profile/${chart!.id}/`))
  await expect(page.getByText(chart!.mrn).filter({ visible: true }).first()).toBeVisible()
  await expect(page.getByText('Signed', { exact: true }).filter({ visible: true }).first()).toBeVisible()
})
