import { expect, test } from '@playwright/test'
import { activeView, api, login, sidebar } from './helpers'

test('an administrator starts the price list, prices a service, sets the currency and exports the list; a nurse has no fees menu and the API refuses her', async ({ page, browser }) => {
  await login(page, 'admin')
  await page.goto('/administrator/services')
  const view = activeView(page)
  // An empty list offers the starter list, named in the user's language, at price 0.
  await expect(view.getByText('The price list is empty.', { exact: false })).toBeVisible()
  await view.getByRole('button', { name: 'Add the starter list' }).click()
  await expect(view.getByRole('button', { name: 'Consultation, new patient' })).toBeVisible()
  await expect(view.getByRole('button', { name: 'Add the starter list' })).toHaveCount(0)

  // The currency first: prices are typed and shown in it.
  await view.getByLabel('Clinic currency').click()
  await page.keyboard.type('PHP')
  await page.keyboard.press('Enter')
  await view.getByLabel('Consultation fee of a New visit').click()
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'CONS-NEW' }).click()
  await view.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Fee settings saved.')).toBeVisible()

  // A price with more decimals than the currency has is refused at once; 500.5 is ₱500.50.
  await view.getByRole('button', { name: 'Consultation, new patient' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change service' })
  await dialog.getByLabel('Price (PHP)').fill('500.505')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText('Write the price as a number', { exact: false })).toBeVisible()
  await dialog.getByLabel('Price (PHP)').fill('500.5')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Service saved.')).toBeVisible()
  await expect(view.getByRole('row', { name: /CONS-NEW/ })).toContainText('₱500.50')

  // The export is the list as CSV, in major units.
  const csv = await (await api(page, 'get', '/api/services/export')).text()
  expect(csv).toContain('CONS-NEW,"Consultation, new patient",consultation,500.50,yes')

  // A nurse: no menu entry, and the server refuses her.
  const nurseContext = await browser.newContext()
  const nurse = await nurseContext.newPage()
  await login(nurse, 'nurse')
  await expect(sidebar(nurse).getByRole('menuitem', { name: 'Price list' })).toHaveCount(0)
  expect((await api(nurse, 'get', '/api/services')).status()).toBe(403)
  expect((await api(nurse, 'post', '/api/services', { code: 'X', name: 'X', category: 'other', price: 1 })).status()).toBe(403)
  await nurseContext.close()
})
