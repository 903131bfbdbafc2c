import { expect, test } from '@playwright/test'
import { api, authenticate } from './helpers'

const VN = "Viet Nam: expanded programme on immunisation (TCMR)"
const WHO = 'WHO recommended routine immunisation'

interface Settings {
  schedules: string[]
  version: number
}

test("the administrator puts Viet Nam's programme before WHO's, and the order is kept", async ({ page }) => {
  await authenticate(page, 'admin')
  // The worker's later specs read the clinic's schedules: they are put back as found.
  const before = (await (await api(page, 'get', '/api/immunisation/settings')).json()) as Settings
  const put = async (schedules: string[]) => {
    const now = (await (await api(page, 'get', '/api/immunisation/settings')).json()) as Settings
    const r = await api(page, 'put', '/api/immunisation/settings', { ...now, schedules })
    expect(r.status(), await r.text()).toBe(200)
  }
  await put(['who'])
  try {
    await page.goto('/administrator/immunisations')
    const order = page.locator('[data-testid^="schedule-"]')
    await expect(page.getByRole('checkbox', { name: `${WHO} (number 1)` })).toBeChecked({ timeout: 60_000 })
    await page.getByRole('checkbox', { name: VN }).check()
    await page.getByRole('button', { name: `Move ${VN} up` }).click()
    await expect(order.nth(0)).toHaveAttribute('data-testid', 'schedule-vn_epi')
    await expect(order.nth(1)).toHaveAttribute('data-testid', 'schedule-who')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('Immunisation settings saved.')).toBeVisible()

    await page.reload()
    await expect(page.getByRole('checkbox', { name: `${VN} (number 1)` })).toBeChecked({ timeout: 60_000 })
    await expect(page.getByRole('checkbox', { name: `${WHO} (number 2)` })).toBeChecked()
    await expect(order.nth(0)).toHaveAttribute('data-testid', 'schedule-vn_epi')
  } finally {
    await put(before.schedules)
  }
})
