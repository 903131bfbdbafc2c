import { test } from '@playwright/test'
import { PASSWORD } from './helpers'

// Screenshots of each screen for a person to look at: `make screenshots` writes them to
// web/test-results/screens. The normal test run leaves this file out (playwright.config.ts).

const viewports = { desktop: { width: 1366, height: 800 }, phone: { width: 390, height: 844 } }
const languages = ['en', 'ru', 'zh', 'vi']

for (const [device, viewport] of Object.entries(viewports)) {
  for (const lang of languages) {
    test(`screens ${device} ${lang}`, async ({ page, context }) => {
      await page.setViewportSize(viewport)
      await context.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      const shot = (name: string) => page.screenshot({ path: `test-results/screens/${name}-${device}-${lang}.png`, fullPage: true })
      await page.goto('/login')
      await page.waitForLoadState('networkidle')
      await shot('login')
      await page.locator('button[type=submit]').click()
      await page.waitForTimeout(300)
      await shot('login-invalid')
      // The form's labels are in the page's language: fill it by the fields' ids.
      await page.locator('#login_username').fill('admin')
      await page.locator('#login_password').fill(PASSWORD)
      await page.locator('button[type=submit]').click()
      await page.waitForURL((u) => !u.pathname.startsWith('/login'))
      await page.waitForLoadState('networkidle')
      await shot('home')
      await page.goto('/no/such/page')
      await page.waitForLoadState('networkidle')
      await shot('not-found')
    })
  }
}
