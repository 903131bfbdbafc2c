// The main thread's work each everyday screen costs when opened cold, for one build or two side
// by side (issue 39). Lighthouse's timings on this machine move by ±50 % from one hour to the
// next; work measured in the same minutes, the two builds taking turns, compares them fairly.
// For each repetition and each server, a fresh phone-sized browser context logs in, then opens
// each screen with the cache off and waits for the network to settle; Chromium's own counters
// (the Performance domain) give the time in tasks, in script, in style recalculation and in
// layout. Unthrottled: multiply by about 4 for Lighthouse's mid-range phone.
// Usage (bench/lighthouse.sh --cpu does this): node bench/screen-cpu.mjs PASSWORD NAME=BASE… -- PATH…
// with REPS repetitions (default 5); prints the medians as a table.
import { createRequire } from 'node:module'
import { join } from 'node:path'

const args = process.argv.slice(2)
const password = args[0]
const split = args.indexOf('--')
const servers = args.slice(1, split).map((s) => s.split('='))
const paths = args.slice(split + 1)
const reps = Number(process.env.REPS ?? 5)
const require = createRequire(join(process.cwd(), 'web', 'package.json'))
const { chromium } = require('@playwright/test')
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' })

const counters = ['TaskDuration', 'ScriptDuration', 'RecalcStyleDuration', 'LayoutDuration']
const samples = new Map() // "path\tserver" → counter → ms[]
for (let rep = 0; rep < reps; rep++) {
  // Taking turns, the first server first on even repetitions and last on odd ones.
  for (const [name, base] of rep % 2 ? [...servers].reverse() : servers) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } })
    const page = await context.newPage()
    await page.goto(`${base}/login`)
    await page.getByLabel('Username').fill('admin')
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL((u) => !u.pathname.startsWith('/login'))
    await page.waitForLoadState('networkidle')
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
    await cdp.send('Performance.enable')
    const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]))
    for (const path of paths) {
      await page.goto('about:blank')
      const before = await read()
      await page.goto(base + path)
      await page.waitForLoadState('networkidle')
      const after = await read()
      const key = `${path}\t${name}`
      if (!samples.has(key)) samples.set(key, Object.fromEntries(counters.map((c) => [c, []])))
      for (const c of counters) samples.get(key)[c].push((after[c] - before[c]) * 1000)
    }
    await context.close()
  }
}
await browser.close()

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`| screen | build | tasks ms | script ms | style ms | layout ms |`)
console.log('|---|---|---|---|---|---|')
for (const path of paths) {
  for (const [name] of servers) {
    const s = samples.get(`${path}\t${name}`)
    console.log(`| ${path} | ${name} | ${counters.map((c) => median(s[c]).toFixed(0)).join(' | ')} |`)
  }
}
