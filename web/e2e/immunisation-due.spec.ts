import { expect, test } from '@playwright/test'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { api, authenticate, day, unique } from './helpers'
import { mailTo } from './mail'
import { port } from './ports'

// The desk finds a child overdue on the due list, filters it down, selects the child and sends
// the family a reminder: the outcome is said on the screen, the e-mail arrives naming the child
// and the vaccine, and a second sending is refused as already reminded.
test('the desk reminds a family of an overdue vaccination from the due list', async ({ page }) => {
  test.setTimeout(40_000)
  await authenticate(page, 'receptionist')
  const last = `Vax-${unique()}`
  const address = `${last.toLowerCase()}@example.test`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Hoa', last_name: last, birth_date: day(-300), sex: 'female', email: address })
  expect(r.status()).toBe(201)
  const child = (await r.json()) as { id: number }
  // The child's next measles dose, overdue, as the forecast keeps it in the due table.
  execFileSync('sqlite3', [
    join('.e2e', String(port), 'emr.db'),
    `DELETE FROM immunisation_due WHERE patient_id = ${child.id}; INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on, birth_date) VALUES (${child.id}, 'e2e_measles', 1, 'who', '${day(-60)}', '${day(-60)}', '${day(-30)}', '${day(-300)}');`,
  ])

  await page.goto('/appointments/immunisations-due')
  await expect(page.getByRole('heading', { name: 'Immunisations due', level: 2 })).toBeVisible()
  await page.getByRole('radiogroup', { name: 'Status' }).getByText(/^Overdue/).click()
  await expect(page.getByRole('radio', { name: /^Overdue/ })).toBeChecked()
  await page.getByLabel('Vaccine against', { exact: true }).selectOption('e2e_measles')
  await page.getByLabel('Age', { exact: true }).selectOption('0-1y')
  const row = page.getByRole('row').filter({ hasText: last })
  await expect(row).toContainText('Overdue')
  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Send reminder (1 child)' }).click()
  await expect(page.getByTestId('remind-outcome')).toContainText('1 reminder queued.')
  await expect(row).not.toContainText('Never')

  await expect.poll(() => mailTo(address).length, { timeout: 20_000 }).toBeGreaterThan(0)
  const mail = mailTo(address)[0]!
  expect(mail).toContain('Hoa')
  expect(mail).toContain('e2e_measles')

  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Send reminder (1 child)' }).click()
  await expect(page.getByTestId('remind-outcome')).toContainText('already reminded of these doses')
})
