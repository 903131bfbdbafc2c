// Lighthouse (performance, mobile profile) on logged-in screens: Chromium is started by
// Playwright with a debugging port and a profile of its own, the user logs in through the
// login page (so the app's own cookies are set), and Lighthouse opens each screen in that same
// browser. Usage (bench/lighthouse.sh does this): node bench/lighthouse.mjs BASE USERNAME
// PASSWORD PATH…, with LIGHTHOUSE_MODULE the path of an installed lighthouse package.
import { mkdtempSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [base, username, password, ...paths] = process.argv.slice(2)
const require = createRequire(join(process.cwd(), 'web', 'package.json'))
const { chromium } = require('@playwright/test')
const lighthouse = (await import(pathToFileURL(process.env.LIGHTHOUSE_MODULE).href)).default
const port = 9333
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'emr-lh-')), {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu'],
  headless: true,
})
const page = await context.newPage()
await page.goto(`${base}/login`)
await page.getByLabel('Username').fill(username)
await page.getByLabel('Password').fill(password)
await page.getByRole('button', { name: 'Log in' }).click()
await page.waitForURL((u) => !u.pathname.startsWith('/login'))
console.log('| screen | performance | LCP s | TBT ms | CLS | shown |')
console.log('|---|---|---|---|---|---|')
for (const path of paths) {
  const r = await lighthouse(`${base}${path}`, { port, output: 'json', onlyCategories: ['performance'], logLevel: 'error' })
  const a = r.lhr.audits
  const shown = new URL(r.lhr.finalDisplayedUrl).pathname
  const value = (id, scale, digits) => (a[id]?.numericValue == null ? `— (${a[id]?.errorMessage ?? 'not measured'})` : (a[id].numericValue / scale).toFixed(digits))
  const score = r.lhr.categories.performance.score
  console.log(`| ${path} | ${score == null ? '—' : Math.round(score * 100)} | ${value('largest-contentful-paint', 1000, 2)} | ${value('total-blocking-time', 1, 0)} | ${value('cumulative-layout-shift', 1, 3)} | ${shown === path ? 'yes' : shown} |`)
}
await context.close()
