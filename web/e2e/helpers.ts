import { expect, type Page } from '@playwright/test'

export const PASSWORD = process.env.EMR_E2E_PASSWORD!

/** Logs in through the login form as one of the seeded accounts (admin, doctor, nurse, receptionist). */
export async function login(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).not.toHaveURL(/\/login/)
}
