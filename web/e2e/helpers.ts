import { expect, type Page } from '@playwright/test'

export const PASSWORD = process.env.EMR_E2E_PASSWORD!

/** Logs in through the login form as one of the seeded accounts (admin, doctor, nurse, receptionist). */
export async function login(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await expect(page.getByRole('complementary', { name: 'Main menu' })).toBeVisible()
}

/** The sidebar menu. */
export const sidebar = (page: Page) => page.getByRole('complementary') // its name is in the page's language

/** The tab of an open page. */
export const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Open pages' }).getByRole('link', { name, exact: true })

/** Logs out through the avatar menu. */
export async function logout(page: Page, name: string) {
  await page.getByRole('button', { name: `Account of ${name}` }).click()
  await page.getByRole('menuitem', { name: 'Log Out' }).click()
}

/** The page area's visible view (others stay mounted but hidden). */
export const activeView = (page: Page) => page.locator('#main > div:not([hidden])')

/** The toast messages. */
export const toasts = (page: Page) => page.locator('.ant-message')

/** An item of the dropdown menu that is open now (a closing one may still be in the page). */
export const menuItem = (page: Page, name: string) =>
  page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name, exact: true })

/** Chooses a menu item and waits until the menu has gone, so it covers nothing next. */
export async function chooseMenuItem(page: Page, name: string) {
  await expect(menuItem(page, name)).toBeVisible()
  await menuItem(page, name).click()
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0)
}

/** Opens a tab's context menu once the page under it has finished loading and laying out. */
export async function openTabMenu(page: Page, name: string) {
  await page.waitForLoadState('networkidle')
  await tab(page, name).click({ button: 'right' })
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(1)
}
