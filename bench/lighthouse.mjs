// Lighthouse on logged-in screens: Chromium is started by Playwright with a debugging port
// and a profile of its own, the user logs in through the login page (so the app's own cookies
// are set), and Lighthouse opens each screen in that same browser, cold (its cache cleared;
// the session's cookies kept). Usage (bench/lighthouse.sh and bench/screens.sh do this): node
// bench/lighthouse.mjs BASE USERNAME PASSWORD PATH…, with LIGHTHOUSE_MODULE the path of an
// installed lighthouse package. LH_PROFILES lists the profiles, "mobile" (Lighthouse's default:
// a mid-range phone, 4× CPU slowdown, slow 4G) and "desktop"; mobile alone by default.
// LH_FULL=1 adds accessibility, time to interactive, main-thread work and the gzip bytes of
// JavaScript and CSS the screen loaded, with Lighthouse's own desktop settings for "desktop".
// LH_SAVE=DIR writes each report (JSON) there, to read what a screen waited for.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const [base, username, password, ...paths] = process.argv.slice(2)
const require = createRequire(join(process.cwd(), 'web', 'package.json'))
const { chromium } = require('@playwright/test')
const lighthouse = (await import(pathToFileURL(process.env.LIGHTHOUSE_MODULE).href)).default
const desktopConfig = (await import(pathToFileURL(join(dirname(process.env.LIGHTHOUSE_MODULE), 'config', 'desktop-config.js')).href)).default
const profiles = (process.env.LH_PROFILES ?? 'mobile').split(',')
const full = process.env.LH_FULL === '1'
const port = 9333
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'emr-lh-')), {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  // LH_INSECURE=1 (bench/lighthouse.sh with LH_HTTPS=1): the run's own certificate, trusted by no one.
  args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', ...(process.env.LH_INSECURE === '1' ? ['--ignore-certificate-errors'] : [])],
  headless: true,
})
const page = await context.newPage()
await page.goto(`${base}/login`)
await page.getByLabel('Username').fill(username)
await page.getByLabel('Password').fill(password)
await page.getByRole('button', { name: 'Log in' }).click()
await page.waitForURL((u) => !u.pathname.startsWith('/login'))
if (full) {
  console.log('| screen | profile | performance | accessibility | LCP s | TBT ms | interactive s | main-thread s | CLS | JS KB | CSS KB | shown |')
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
} else {
  console.log('| screen | performance | LCP s | TBT ms | CLS | shown |')
  console.log('|---|---|---|---|---|---|')
}
// kilobytes sums the bytes on the wire (the server sends its files gzip-compressed) of the
// requests of one resource type.
const kilobytes = (lhr, type) =>
  ((lhr.audits['network-requests']?.details?.items ?? []).filter((r) => r.resourceType === type).reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024).toFixed(0)
const findings = []
for (const path of paths) {
  // "@portal:CODE:BIRTH" signs the browser in to the portal with an access code and the birth
  // date, as the portal's page does: the /portal after it is the signed-in portal.
  if (path.startsWith('@portal:')) {
    const [, code, birth] = path.split(':')
    await page.goto(`${base}/portal`)
    const status = await page.evaluate(async ([code, birth]) => {
      await fetch('/api/portal/session', { headers: { Accept: 'application/json' } })
      const csrf = decodeURIComponent(/(?:^|; )(?:__Host-)?XSRF-PORTAL=([^;]*)/.exec(document.cookie)?.[1] ?? '')
      const r = await fetch('/api/portal/sign-in/access', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-XSRF-TOKEN': csrf, 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ code, birth_date: birth }),
      })
      return r.status
    }, [code, birth])
    if (status !== 200) throw new Error(`portal sign-in: ${status}`)
    continue
  }
  for (const profile of profiles) {
    const categories = full ? ['performance', 'accessibility'] : ['performance']
    const flags = { port, output: 'json', onlyCategories: categories, logLevel: 'error' }
    const r = profile === 'desktop' ? await lighthouse(`${base}${path}`, flags, desktopConfig) : await lighthouse(`${base}${path}`, flags)
    const a = r.lhr.audits
    if (process.env.LH_SAVE) {
      mkdirSync(process.env.LH_SAVE, { recursive: true })
      writeFileSync(join(process.env.LH_SAVE, `${path.replace(/\W+/g, '_')}-${profile}.json`), JSON.stringify(r.lhr))
    }
    const shown = new URL(r.lhr.finalDisplayedUrl).pathname
    // A metric Lighthouse could not take shows its error's code (NO_NAVSTART: run again).
    const value = (id, scale, digits) =>
      a[id]?.numericValue == null ? `— (${/\(([A-Z_]+)\)/.exec(a[id]?.errorMessage ?? '')?.[1] ?? 'not measured'})` : (a[id].numericValue / scale).toFixed(digits)
    const score = (name) => {
      const s = r.lhr.categories[name]?.score
      return s == null ? '—' : Math.round(s * 100)
    }
    const seen = shown === path ? 'yes' : shown
    for (const ref of full && profile === profiles[0] ? (r.lhr.categories.accessibility?.auditRefs ?? []) : []) {
      const audit = a[ref.id]
      if (ref.weight > 0 && audit?.score === 0) {
        const nodes = (audit.details?.items ?? []).map((i) => i.node?.selector).filter(Boolean)
        findings.push(`- ${path}: \`${ref.id}\` ${audit.title} (${nodes.length} ${nodes.length === 1 ? 'element' : 'elements'}: ${nodes.slice(0, 3).join('; ')})`)
      }
    }
    if (full) {
      console.log(`| ${path} | ${profile} | ${score('performance')} | ${score('accessibility')} | ${value('largest-contentful-paint', 1000, 2)} | ${value('total-blocking-time', 1, 0)} | ` +
        `${value('interactive', 1000, 2)} | ${value('mainthread-work-breakdown', 1000, 1)} | ${value('cumulative-layout-shift', 1, 3)} | ${kilobytes(r.lhr, 'Script')} | ${kilobytes(r.lhr, 'Stylesheet')} | ${seen} |`)
    } else {
      console.log(`| ${path} | ${score('performance')} | ${value('largest-contentful-paint', 1000, 2)} | ${value('total-blocking-time', 1, 0)} | ${value('cumulative-layout-shift', 1, 3)} | ${seen} |`)
    }
  }
}
if (findings.length > 0) {
  console.log('\nAccessibility audits failed (the first profile):\n')
  console.log(findings.join('\n'))
}
await context.close()
