// The everyday flow's interactions, timed as a user feels them (issue 58): for each repetition,
// each CPU rate (1× and 4×, Chromium's own throttling) and each server (taking turns, the order
// reversed every repetition), a fresh 1366×768 context logs in and runs the flow: menu →
// patients; typing a search; opening a patient; menu → the day's queue; queue → the visit;
// "New prescription"; "Add medicine"; typing vitals until autosaved; opening the visit's bill,
// "Take payment" and "Receive". A PerformanceObserver installed before the app's scripts
// collects Event Timing entries (durationThreshold 16) and long tasks; a readiness condition
// per interaction, polled in the page every animation frame, says when the screen is usable.
// Measurements only: nothing is asserted beyond what the flow needs to go on.
// Usage (bench/interactions.sh does this): node bench/interactions.mjs PASSWORD NAME=BASE…
// with BENCH_TERM (the search typed), BENCH_VISIT_NAME (the queue row's patient), REPS
// (default 3) and CPU_RATES (default "1 4"); prints the medians as a markdown table.
import { createRequire } from 'node:module'
import { join } from 'node:path'

const [password, ...serverArgs] = process.argv.slice(2)
const servers = serverArgs.map((s) => s.split('='))
const reps = Number(process.env.REPS ?? 3)
const rates = (process.env.CPU_RATES ?? '1 4').split(/\s+/).filter(Boolean).map(Number)
const term = process.env.BENCH_TERM ?? 'ngu'
const visitName = process.env.BENCH_VISIT_NAME ?? ''
const require = createRequire(join(process.cwd(), 'web', 'package.json'))
const { chromium } = require('@playwright/test')
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' })

/** Installed before the app's scripts: the observers, the inputs' times and the readiness conditions. */
function instrument() {
  const b = (window.__bench = { events: [], longtasks: [], inputs: [] })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.events.push({ name: e.name, start: e.startTime, duration: e.duration, id: e.interactionId })
  }).observe({ type: 'event', durationThreshold: 16, buffered: true })
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  for (const type of ['pointerdown', 'keydown']) addEventListener(type, (e) => b.inputs.push(e.timeStamp), true)
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()))
  const view = () => document.querySelector('#main > div:not([hidden])') ?? document.body
  const busy = (el) => !!el.querySelector('.ant-spin-spinning, .ant-skeleton, [aria-busy="true"]')
  // A table's rows of data, on either foundation (the library's adds a hidden measuring row and
  // a placeholder row when empty; the light table neither).
  const rows = (el) => [...el.querySelectorAll('tbody tr')].filter((r) => r.querySelector('td') && r.getAttribute('aria-hidden') !== 'true' && !r.classList.contains('ant-table-placeholder'))
  // An empty list: the library's empty tray, or the light list's status line saying so.
  const empty = (el) => !!el.querySelector('.ant-empty') || !!el.querySelector('p[role="status"]')?.textContent
  const control = (root, text) => {
    const label = [...root.querySelectorAll('label')].find((l) => (text instanceof RegExp ? text.test(l.textContent.trim()) : l.textContent.trim() === text))
    return label && (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input, textarea'))
  }
  const status = () => view().querySelector('[role="status"]')?.textContent ?? ''
  // An open dialog by its title, on either foundation (the library keeps closed ones hidden).
  const openModal = (title) =>
    [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].find((d) => d.offsetParent !== null && document.getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent === title)
  // The bill shown in the open drawer (the library's or the light one).
  const billInDrawer = () => [...document.querySelectorAll('[role="dialog"] [data-testid="bill"]')].find((b) => b.offsetParent !== null)
  b.status = status
  b.ready = {
    patients: () => location.pathname === '/masterfile/patients' && rows(view()).length > 0 && !busy(view()),
    search: (q) =>
      new URLSearchParams(location.search).get('q') === q && !busy(view()) && (rows(view()).length > 0 || empty(view())),
    chart: () => location.pathname.startsWith('/masterfile/profile/') && !!view().querySelector('[data-testid="patient-banner"]') && !busy(view()),
    queue: (name) =>
      location.pathname === '/appointments/appointments' &&
      !busy(view()) &&
      rows(view()).some((r) => r.textContent.includes(name) && [...r.querySelectorAll('button')].some((x) => x.textContent.trim() === 'Diagnosis')),
    visit: () => {
      const field = location.pathname.startsWith('/appointments/form/') && control(view(), 'BP systolic')
      return !!field && !field.disabled && !busy(view())
    },
    lines: (n) => view().querySelectorAll('[data-testid="rx-line"]').length === n,
    saved: (before) => status().startsWith('Saved at') && status() !== before,
    bill: () => {
      const drawer = billInDrawer()
      return !!drawer && !busy(drawer) && [...drawer.querySelectorAll('button')].some((x) => x.textContent.trim() === 'Take payment')
    },
    payDialog: () => {
      const m = openModal('Take payment')
      return !!m && !!control(m, /^Amount \(/)
    },
    paid: () => !openModal('Take payment') && !!billInDrawer()?.textContent.includes('Payment received'),
  }
  // Polls the condition every frame; once it holds, two more frames; returns performance.now().
  b.until = async (name, arg, limit = 60000) => {
    const t = performance.now()
    while (!b.ready[name](arg)) {
      if (performance.now() - t > limit) throw new Error(`not ready in ${limit} ms: ${name}`)
      await frame()
    }
    await frame()
    await frame()
    return performance.now()
  }
}

const samples = new Map() // "interaction\trate\tserver" → { usable: [], inp: [], lt: [], ltMax: [] }
const order = [] // interactions in the order met, with whether each is a navigation
const record = (key, nav, values) => {
  if (!order.some(([k]) => k === key)) order.push([key, nav])
  for (const rate of [values.rate]) {
    const k = `${key}\t${rate}\t${values.server}`
    if (!samples.has(k)) samples.set(k, { usable: [], inp: [], lt: [], ltMax: [] })
    const s = samples.get(k)
    for (const m of ['usable', 'inp', 'lt', 'ltMax']) s[m].push(values[m])
  }
}

/**
 * Times one interaction: the readiness wait starts in the page before act() gives the input, so
 * the end is the frame the condition first held in; the start is the first input's event time
 * after t0 (the last key's, with lastInput). INP and long tasks are read 1.2 s after usable.
 */
async function timed(page, ctx, key, nav, act, ready, arg, { lastInput = false } = {}) {
  const t0 = await page.evaluate(() => performance.now())
  const waiting = page.evaluate(([name, a]) => window.__bench.until(name, a), [ready, arg])
  waiting.catch(() => {})
  await act()
  const end = await waiting
  await page.waitForTimeout(1200)
  const m = await page.evaluate(
    ([t0, end, lastInput]) => {
      const b = window.__bench
      const inputs = b.inputs.filter((t) => t >= t0)
      const start = lastInput ? inputs[inputs.length - 1] : inputs[0]
      const events = b.events.filter((e) => e.id > 0 && e.start >= inputs[0] - 1 && e.start <= end)
      const tasks = b.longtasks.filter((l) => l.start + l.duration >= start && l.start <= end + 1200)
      return {
        usable: end - start,
        inp: Math.max(0, ...events.map((e) => e.duration)),
        lt: tasks.reduce((s, l) => s + l.duration, 0),
        ltMax: Math.max(0, ...tasks.map((l) => l.duration)),
      }
    },
    [t0, end, lastInput],
  )
  record(key, nav, { ...m, ...ctx })
}

/** Types text one key at a time, 150 ms apart, as a person does. */
async function typeSlowly(page, text) {
  for (const ch of text) {
    await page.keyboard.press(ch)
    await page.waitForTimeout(150)
  }
}

let vitalsValue = 100 // a new value each time, so that each time there is something to save
async function flow(page, ctx) {
  const menu = page.getByRole('complementary', { name: 'Main menu' })
  const item = (name) => menu.getByRole('menuitem', { name, exact: true })
  // Dashboard → Patients (its submenu opened first, untimed).
  if (!(await item('Patients').isVisible())) await item('Master File').click()
  await item('Patients').waitFor()
  await timed(page, ctx, '⇢ menu → patients', true, () => item('Patients').click(), 'patients')
  // Typing a search, one key at a time.
  const box = page.getByRole('searchbox', { name: 'Search patients' })
  await box.click()
  await page.waitForTimeout(300)
  await timed(page, ctx, `⇢ typing a search (${term.length} keys)`, true, () => typeSlowly(page, term), 'search', term, { lastInput: true })
  // Opening the first patient found.
  const row = page.locator('#main > div:not([hidden]) tbody tr:has(td):not([aria-hidden="true"])').first()
  await timed(page, ctx, '⇢ list → patient chart', true, () => row.getByRole('link').nth(1).click(), 'chart')
  // Menu → the day's queue.
  const queueItem = menu.getByRole('menuitem', { name: 'Appointments', exact: true })
  if ((await queueItem.count()) < 2 || !(await queueItem.last().isVisible())) await queueItem.first().click()
  await page.waitForTimeout(300)
  await timed(page, ctx, '⇢ menu → queue', true, () => queueItem.last().click(), 'queue', visitName)
  // Queue → the visit.
  const queueRow = page.locator('#main > div:not([hidden]) tbody tr', { hasText: visitName })
  await timed(page, ctx, '⇢ queue → visit', true, () => queueRow.getByRole('button', { name: 'Diagnosis' }).click(), 'visit')
  // A new prescription, a second line, then closed unsaved.
  const view = page.locator('#main > div:not([hidden])')
  await timed(page, ctx, 'New prescription', false, () => view.getByRole('button', { name: 'New prescription' }).click(), 'lines', 1)
  await timed(page, ctx, 'Add medicine', false, () => view.getByRole('button', { name: 'Add medicine' }).click(), 'lines', 2)
  await view.locator('form[aria-label="Prescription"]').getByRole('button', { name: 'Close', exact: true }).click()
  // Vitals: three keys over the systolic pressure, then the autosave.
  const systolic = view.getByLabel('BP systolic')
  await systolic.click()
  await page.keyboard.press('ControlOrMeta+a')
  const before = await page.evaluate(() => window.__bench.status())
  vitalsValue = vitalsValue >= 159 ? 100 : vitalsValue + 1
  await timed(page, ctx, 'vitals typed → saved (3 keys)', false, () => typeSlowly(page, String(vitalsValue)), 'saved', before, { lastInput: true })
  // The visit's bill, from the queue's row (untimed way back), a payment of 1.00.
  await queueItem.last().click()
  await page.waitForFunction((name) => window.__bench.ready.queue(name), visitName)
  await queueRow.getByRole('button', { name: /^More actions for / }).click()
  const billItem = page.getByRole('menuitem', { name: 'Bill', exact: true })
  await billItem.waitFor()
  await timed(page, ctx, '⇢ queue → bill', true, () => billItem.click(), 'bill')
  const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('bill') })
  await timed(page, ctx, 'Take payment', false, () => drawer.getByRole('button', { name: 'Take payment' }).click(), 'payDialog')
  const dialog = page.getByRole('dialog', { name: 'Take payment' })
  await dialog.getByLabel(/^Amount \(/).fill('1')
  await timed(page, ctx, 'Receive (payment → receipt)', false, () => dialog.getByRole('button', { name: 'Receive' }).click(), 'paid')
}

const started = Date.now()
for (let rep = 0; rep < reps; rep++) {
  for (const rate of rates) {
    for (const [server, base] of rep % 2 ? [...servers].reverse() : servers) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 768 } })
      await context.addInitScript(instrument)
      const page = await context.newPage()
      page.setDefaultTimeout(60_000)
      await page.goto(`${base}/login`)
      await page.getByLabel('Username').fill('admin')
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL((u) => !u.pathname.startsWith('/login'))
      await page.getByRole('complementary', { name: 'Main menu' }).waitFor()
      await page.waitForLoadState('networkidle')
      const cdp = await context.newCDPSession(page)
      await cdp.send('Emulation.setCPUThrottlingRate', { rate })
      try {
        await flow(page, { rate, server })
      } catch (e) {
        console.error(`rep ${rep + 1}, ${rate}×, ${server}: ${e.message.split('\n')[0]}`)
        await page.screenshot({ path: 'bench/out/interactions-failed.png' }).catch(() => {})
      }
      await context.close()
      console.error(`rep ${rep + 1}, ${rate}×, ${server}: done at ${((Date.now() - started) / 1000).toFixed(0)} s`)
    }
  }
}
await browser.close()

const median = (xs) => (xs.length ? xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)] : NaN)
const ms = (x) => (Number.isNaN(x) ? '—' : Math.round(x).toLocaleString('en'))
console.log('| interaction | CPU | build | usable ms | INP ms | long tasks ms (longest) | budget at 4× |')
console.log('|---|---|---|---|---|---|---|')
for (const [key, nav] of order) {
  for (const rate of rates) {
    for (const [server] of servers) {
      const s = samples.get(`${key}\t${rate}\t${server}`)
      if (!s) continue
      const usable = median(s.usable)
      const inp = median(s.inp)
      let budget = ''
      if (rate === 4) {
        const misses = []
        if (inp > 200) misses.push('INP')
        if (nav && usable > 1000) misses.push('usable')
        budget = misses.length ? `not met (${misses.join(', ')})` : 'met'
      }
      const n = s.usable.length < reps ? ` (n=${s.usable.length})` : ''
      console.log(`| ${key} | ${rate}× | ${server}${n} | ${ms(usable)} | ${ms(inp)} | ${ms(median(s.lt))} (${ms(median(s.ltMax))}) | ${budget} |`)
    }
  }
}
