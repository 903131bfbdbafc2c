import { expect, test, type Browser, type Page } from '@playwright/test'
import { createHmac } from 'node:crypto'
import { FLAG } from '../src/lib/session'

export const PASSWORD = process.env.EMR_E2E_PASSWORD!

/** Logs in through the login form as one of the seeded accounts (admin, doctor, nurse, receptionist). */
export async function loginWithForm(page: Page, username: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  await expect(page.getByRole('complementary', { name: 'Main menu' })).toBeVisible()
}

/**
 * Logs in as the login form does — the CSRF cookie, the credentials, the logged-in mark — without
 * drawing the form (login.spec.ts tests the form with loginWithForm) and without opening the app:
 * for a test whose next step opens a screen of its own, or that calls only the API. Each load of
 * the app costs seconds on a busy machine; the dashboard loaded only to be left is a minute a run.
 */
export async function authenticate(page: Page, username: string, password = PASSWORD) {
  // An app left open in the page (the login page after a logout) is closed first: it would
  // hear the new session begin and race the test's own navigation.
  if (page.url() !== 'about:blank') await page.goto('about:blank')
  expect((await page.request.get('/api/sanctum/csrf-cookie')).ok()).toBe(true)
  const r = await api(page, 'post', '/api/auth/login', { username, password })
  expect(r.status(), await r.text()).toBe(200)
  await page.context().addCookies([{ name: FLAG, value: '1', url: test.info().project.use.baseURL!, sameSite: 'Lax' }])
}

/** Logs in (authenticate) and opens the app where the form would have sent it, the dashboard. */
export async function login(page: Page, username: string, password = PASSWORD) {
  await authenticate(page, username, password)
  await page.goto('/')
  // The app's first load in a fresh browser context: on a busy two-core machine it has taken
  // more than the 20 s an expectation waits by default (a bound, not a wait).
  await expect(page.getByRole('complementary', { name: 'Main menu' })).toBeVisible({ timeout: 60_000 })
}

/** The sidebar menu. */
export const sidebar = (page: Page) => page.getByRole('complementary') // its name is in the page's language

/** The tab of an open page. */
export const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Open pages' }).getByRole('link', { name, exact: true })

/** Logs out through the avatar menu. */
export async function logout(page: Page, name: string) {
  await page.getByRole('button', { name: `Account of ${name}` }).click()
  await page.getByRole('menuitem', { name: 'Log Out' }).click()
  // Wait for the server to end the session: a navigation started before then would abort it.
  await expect(page).toHaveURL(/\/login/)
}

/** The page area's visible view (others stay mounted but hidden). */
export const activeView = (page: Page) => page.locator('#main > div:not([hidden])')

/** The shown screen's table rows that hold data (a light table's: not its header row). */
export const dataRows = (page: Page) => activeView(page).getByRole('table').getByRole('row').filter({ has: page.getByRole('cell') })

/** The toast messages: the frame's light ones, and those a library screen raises (App.message). */
export const toasts = (page: Page) => page.locator('[data-emr-toasts], .ant-message')

/** The menus open now: the frame's light menus, and a library screen's dropdowns (a closing one may still be in the page). */
export const openMenus = (page: Page) => page.locator('[role="menu"][data-emr-menu], .ant-dropdown:not(.ant-dropdown-hidden)')

/** An item of the menu that is open now. */
export const menuItem = (page: Page, name: string) => openMenus(page).getByRole('menuitem', { name, exact: true })

/** Chooses a menu item and waits until the menu has gone, so it covers nothing next. */
export async function chooseMenuItem(page: Page, name: string) {
  await expect(menuItem(page, name)).toBeVisible()
  await menuItem(page, name).click()
  await expect(openMenus(page)).toHaveCount(0)
}

/** Opens a tab's context menu once the page under it has finished loading and laying out. */
export async function openTabMenu(page: Page, name: string) {
  await page.waitForLoadState('networkidle')
  await tab(page, name).click({ button: 'right' })
  await expect(openMenus(page)).toHaveCount(1)
}

export const unique = () => Math.random().toString(36).slice(2, 7)
export const day = (offset: number) => {
  const d = new Date()
  d.setDate(d.getDate() + offset)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** Calls the API as the logged-in page's user. */
export async function api(page: Page, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, data?: unknown) {
  const xsrf = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? ''
  return page.request.fetch(path, { method, data, headers: { 'X-XSRF-TOKEN': xsrf } })
}

export async function newPatient(page: Page, last: string) {
  const r = await api(page, 'post', '/api/patients', { first_name: 'Minh', last_name: last, birth_date: '1984-03-04', sex: 'male', history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  return (await r.json()) as { id: number; mrn: string }
}

export async function doctorId(page: Page) {
  const r = await api(page, 'get', '/api/doctors')
  return ((await r.json()) as { data: { id: number; name: string }[] }).data.find((d) => d.name === 'E2E doctor')!.id
}

/** The TOTP code (RFC 6238: SHA-1, 6 digits, 30 s) of a base32 secret at a time. */
export function totp(secret: string, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0')
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)))
  const h = createHmac('sha1', key).update(counter).digest()
  const o = h[h.length - 1] & 0xf
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0')
}

/** Makes the clinic currency the Philippine peso (an administrator's page), keeping the consultation fees set. */
export async function usePeso(admin: Page) {
  const s = (await (await api(admin, 'get', '/api/fees/settings')).json()) as { currency: string; consultation: Record<string, string>; version: number }
  if (s.currency === 'PHP') return
  expect((await api(admin, 'put', '/api/fees/settings', { currency: 'PHP', consultation: s.consultation, version: s.version })).status()).toBe(200)
}

/** Books the patient with the doctor at the first free 10-minute slot of a day from an hour on; the appointment's id. */
export async function bookFirstFree(page: Page, patientId: number, doctor: number, on: string, hour: number, type: 'new' | 'follow-up' = 'new', more: Record<string, unknown> = {}) {
  for (let minute = 0; minute < 600; minute += 10) {
    const startsAt = new Date(`${on}T${String(hour).padStart(2, '0')}:00:00`)
    startsAt.setMinutes(minute)
    const a = await api(page, 'post', '/api/appointments', { patient_id: patientId, doctor_id: doctor, starts_at: startsAt.toISOString(), duration_minutes: 10, type, ...more })
    if (a.status() === 201) return ((await a.json()) as { id: number }).id
  }
  throw new Error(`no free slot on ${on}`)
}

/**
 * Counts and closes a drawer still open with the cash it should hold, as a supervisor would
 * (page is one: it sees that figure). A drawer a spec opens and leaves open is of an earlier
 * day after midnight, and a drawer of an earlier day takes no cash: a later spec's payment or
 * refund through it would be refused.
 */
export async function closeDrawer(page: Page, id: number) {
  const d = (await (await api(page, 'get', `/api/drawers/${id}`)).json()) as { closed_at: string | null; drawer_cash: number; version: number }
  if (d.closed_at) return
  const counted = await api(page, 'post', `/api/drawers/${id}/count`, { counted: d.drawer_cash, version: d.version })
  expect(counted.status(), await counted.text()).toBe(200)
  const closed = await api(page, 'post', `/api/drawers/${id}/close`, { counted: d.drawer_cash, version: ((await counted.json()) as { version: number }).version })
  expect(closed.status(), await closed.text()).toBe(200)
}

/**
 * A logged-in page in a context of its own, optionally in a language (the language cookie);
 * printing opens no dialog there: window.print only counts, in window.printed.
 */
export async function openCountingPrints(browser: Browser, who: string, lang?: string) {
  const context = await browser.newContext()
  await context.addInitScript(() => {
    const w = window as unknown as { printed: number; print: () => void }
    w.printed = 0
    w.print = () => void w.printed++
  })
  const page = await context.newPage()
  await login(page, who)
  if (lang) await context.addCookies([{ name: 'language', value: lang, url: new URL(page.url()).origin }])
  return page
}
