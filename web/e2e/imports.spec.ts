import { expect, test } from '@playwright/test'
import { activeView, authenticate, unique } from './helpers'

test('a large medicines import shows its progress as the server writes it, then the report', async ({ page }) => {
  test.setTimeout(180_000)
  await authenticate(page, 'admin')
  await page.goto('/administrator/medicines')
  await expect(page.locator('html')).toHaveAttribute('data-push', 'connected')
  const tag = unique()
  const rows = Array.from({ length: 12_000 }, (_, i) => `Imported ${tag} ${i},,${10 + (i % 90)} mg,tablet,tablet`)
  const file = { name: 'medicines.csv', mimeType: 'text/csv', buffer: Buffer.from(['generic_name,brand,strength,form,unit', ...rows].join('\n')) }
  const view = activeView(page)
  await view.locator('input[type=file]').setInputFiles(file)
  // The server's reports arrive over the live connection while the upload's request runs.
  await expect(view.getByTestId('import-progress')).toContainText(/of about 12,000 rows imported/)
  await expect(view.getByText('Imported: 12000 added, 0 updated, 0 unchanged, 0 rejected.')).toBeVisible({ timeout: 60_000 })
  await expect(view.getByTestId('import-progress')).toHaveCount(0)
})
