// Temporary: screenshots for the review (not committed).
import { expect, test, type Page } from '@playwright/test'
import { api, authenticate, day } from './helpers'
import { pdfPages } from './pdf'

const OUT = '/tmp/wt-c-shots'

async function lang(page: Page, l: string) {
  await page.context().addCookies([{ name: 'language', value: l, url: test.info().project.use.baseURL! }])
}

test('shots', async ({ page }) => {
  test.setTimeout(600_000)
  await authenticate(page, 'admin')
  const now = await (await api(page, 'get', '/api/immunisation/settings')).json()
  const put = await api(page, 'put', '/api/immunisation/settings', { ...now, schedules: ['vn_epi', 'who'], stocked: ['dtwp_hepb_hib', 'bopv', 'ipv', 'mmr', 'bcg', 'hepb_paed', 'measles', 'mr', 'je_live', 'varicella'] })
  expect(put.status(), await put.text()).toBe(200)
  await authenticate(page, 'receptionist')
  const mk = async (first: string, born: string) => (await (await api(page, 'post', '/api/patients', { first_name: first, last_name: 'Nguyễn', birth_date: born, sex: 'female', history: { allergy_status: 'none' } })).json()) as { id: number; mrn: string }
  const older = await mk('Mai', day(-430))
  const infant = await mk('An', day(-75))
  const newborn = await mk('Bình', day(-17))
  await authenticate(page, 'nurse')
  const at = (d: number) => day(-430 + d)
  const doses: [string, number][] = [['bcg', 0], ['hepb_paed', 0], ['dtwp_hepb_hib', 61], ['bopv', 61], ['dtwp_hepb_hib', 92], ['bopv', 92], ['dtwp_hepb_hib', 122], ['bopv', 122], ['ipv', 152], ['measles', 275], ['je_live', 370], ['mr', 400]]
  const ids: number[] = []
  for (const [vaccine, d] of doses) {
    const r = await api(page, 'post', `/api/patients/${older.id}/immunisations`, { kind: 'elsewhere', vaccine, antigen: '', occurred_on: at(d), lot: `L${d}`, expiry: '', site: '', route: '', performer: '', source: 'card', place: 'Trạm Y tế phường Bến Nghé', reason: '', until_on: '', note: '', screening: { pregnant: null, immunosuppressed: null }, override_reason: '' })
    expect(r.status(), await r.text()).toBe(201)
    ids.push(((await r.json()) as { id: number }).id)
  }
  const c = await api(page, 'post', `/api/patients/${older.id}/immunisations`, { kind: 'contraindicated', vaccine: '', antigen: 'rotavirus', occurred_on: at(60), lot: '', expiry: '', site: '', route: '', performer: '', source: '', place: '', reason: 'Lồng ruột (intussusception) in the past', until_on: '', note: '', screening: { pregnant: null, immunosuppressed: null }, override_reason: '' })
  expect(c.status(), await c.text()).toBe(201)
  const re = await api(page, 'post', `/api/immunisations/${ids[2]}/reactions`, { onset_on: at(61), reaction: 'fever', severity: 'moderate', serious: false, description: '39 °C, 1 day', reported_to: '' })
  expect(re.status(), await re.text()).toBe(201)

  for (const l of ['en', 'vi', 'zh']) {
    await lang(page, l)
    for (const [device, size] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
      await page.setViewportSize(size)
      await page.goto(`/masterfile/profile/${older.id}/${older.mrn}`)
      const card = page.getByTestId('immunisations').first()
      await expect(card.getByTestId('forecast')).toBeVisible({ timeout: 30_000 })
      await card.scrollIntoViewIfNeeded()
      const det = card.getByTestId('visit-detail').first()
      if (await det.count()) await det.locator('summary').click()
      await card.screenshot({ path: `${OUT}/chart-imm-${l}-${device}.png` })
      await page.goto(`/masterfile/profile/${infant.id}/${infant.mrn}`)
      await expect(page.getByTestId('patient-banner').first()).toBeVisible({ timeout: 30_000 })
      await page.getByTestId('patient-banner').first().screenshot({ path: `${OUT}/banner-infant-${l}-${device}.png` })
      await page.goto(`/masterfile/profile/${newborn.id}/${newborn.mrn}`)
      await expect(page.getByTestId('patient-banner').first()).toBeVisible({ timeout: 30_000 })
      await page.getByTestId('patient-banner').first().screenshot({ path: `${OUT}/banner-newborn-${l}-${device}.png` })
      await page.goto('/appointments/immunisations-due')
      await expect(page.getByRole('table').first()).toBeVisible({ timeout: 30_000 })
      await page.waitForTimeout(500)
      await page.screenshot({ path: `${OUT}/due-${l}-${device}.png`, fullPage: true })
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      console.log(`due ${l} ${device}: sideways ${sideways}px`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  for (const l of ['en', 'vi']) {
    await lang(page, l)
    for (const paper of ['a6-portrait', 'a5-portrait']) {
      const r = await api(page, 'post', `/api/patients/${older.id}/immunisation-card`, { paper, language: l })
      expect(r.status(), await r.text()).toBe(201)
      const d = (await r.json()) as { id: number; code: string }
      await page.goto(`/documents/${d.id}/print`)
      const sheet = page.getByTestId('document-sheet').first()
      await expect(sheet).toBeVisible({ timeout: 30_000 })
      await sheet.screenshot({ path: `${OUT}/card-${paper}-${l}.png` })
      const pages = pdfPages(await page.pdf({ preferCSSPageSize: true }))
      console.log(`card ${paper} ${l}: ${pages.length} page(s)`)
      await page.goto(`/verify/${d.code}`)
      await page.screenshot({ path: `${OUT}/verify-${l}-${paper}.png`, fullPage: true })
    }
  }
})
