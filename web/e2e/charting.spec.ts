import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, login, newPatient, unique } from './helpers'

// Charting a visit quickly and safely (issue 37): an order set applied through its dialog
// (and applied again: what the visit has is not added twice, the medicine is a duplicate that
// needs a reason), a snippet expanded from the chart and taken back, the keyboard's shortcuts
// and their help, a favourite starred, copy forward from the last visit marked as copied;
// the dialogs judged by axe on a desktop in English and on a phone in Chinese.

/** A started visit of a new patient tomorrow with the E2E doctor; its appointment id. */
async function startedVisit(page: Page, hour: number, patientId?: number) {
  const patient = patientId ?? (await newPatient(page, `Chart${unique()}`)).id
  const id = await bookFirstFree(page, patient, await doctorId(page), day(1), hour, 'follow-up')
  expect((await api(page, 'post', `/api/appointments/${id}/arrive`, {})).status()).toBe(200)
  expect((await api(page, 'post', `/api/appointments/${id}/start`, {})).status()).toBe(200)
  return { id, patient }
}

/** Serious and critical axe findings in the open dialog (or the page's visible view), looked at again for a few seconds so that nothing caught mid-change (a colour turning) counts. */
async function findings(page: Page, where: 'dialog' | 'view' = 'dialog') {
  // Colours are judged at rest, as the accessibility pass judges them.
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' })
  const analyze = async () => {
    const axe = where === 'dialog' ? new AxeBuilder({ page }).include('.ant-modal-wrap:not([style*="display: none"]), [role="dialog"][aria-modal="true"]') : new AxeBuilder({ page }).exclude('#main > div[hidden]')
    const results = await axe.analyze()
    return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  }
  let last: string[] = []
  await expect
    .poll(async () => (last = await analyze()).length, { timeout: 5_000, intervals: [500, 1_000] })
    .toBe(0)
    .catch(() => undefined) // what still holds is reported by the caller
  return last
}

const dialog = (page: Page) => page.getByRole('dialog')

async function chooseSet(page: Page, name: RegExp) {
  await dialog(page).getByRole('combobox', { name: 'Order set' }).click()
  // The light select with search: its options are the list's (role option), as the library's were.
  await dialog(page).getByRole('option', { name }).first().click()
}

test('an order set, a snippet, the keyboard and a favourite chart a visit', async ({ page }) => {
  await login(page, 'doctor')
  const { id } = await startedVisit(page, 6)
  await page.goto(`/appointments/form/${id}`)
  const view = activeView(page)
  await view.getByLabel('BP systolic').fill('138')
  await view.getByLabel('BP diastolic').fill('86')

  // The set, by the keyboard: every item checked, then applied in one go.
  await view.getByLabel('BP diastolic').press('Alt+o')
  await expect(dialog(page)).toBeVisible()
  await chooseSet(page, /^Hypertension — follow-up/)
  await expect(dialog(page).getByRole('checkbox', { name: /I10 — Essential/ })).toBeChecked()
  await expect(dialog(page).getByRole('checkbox', { name: 'Lipid panel' })).toBeChecked()
  expect(await findings(page)).toEqual([])
  await dialog(page).getByRole('button', { name: /^Apply \d+ items$/ }).click()
  await expect(dialog(page)).toHaveCount(0)
  await expect(view.getByLabel('Plan / remarks')).toHaveValue(/Home blood pressure diary/)
  // A test ordered shows its name in its field (the light select with search holds it as its text).
  await expect.poll(() => view.locator('#visit-orders').getByRole('combobox', { name: 'Test' }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toContain('Lipid panel')
  await expect.poll(() => view.locator('#visit-diagnoses').getByRole('combobox', { name: 'Code' }).evaluateAll((codes) => codes.map((c) => (c as HTMLInputElement).value).join('; '))).toContain('I10')
  // The set's checks are questions left unticked: none is written into the plan.
  await expect(view.getByLabel('Plan / remarks')).not.toHaveValue(/Confirmed at this visit/)

  // Applied again: the visit's items are unchecked and marked.
  await view.getByRole('button', { name: 'Order set…' }).click()
  await chooseSet(page, /^Hypertension — follow-up/)
  await expect(dialog(page).getByRole('checkbox', { name: /I10 — Essential/ })).not.toBeChecked()
  await expect(dialog(page).getByText('already on this visit').first()).toBeVisible()
  expect(await findings(page)).toEqual([])
  await dialog(page).getByRole('button', { name: 'Cancel' }).click()

  // A snippet filled from the chart, marked, and taken back with Ctrl+Z.
  const exam = view.getByLabel('Physical examination')
  await exam.click()
  await exam.pressSequentially(';ntd')
  await exam.press('Space')
  await expect(exam).toHaveValue(/BP 138\/86 mmHg\.$/)
  await expect(view.locator('#visit-findings mark', { hasText: '138/86' })).toHaveCount(1)
  await expect(view.getByText('1 value filled from the chart is highlighted: check it before signing.')).toBeVisible()
  await exam.press('Control+z')
  await expect(exam).toHaveValue(';ntd')
  await exam.press('Space')
  await expect(exam).toHaveValue(/^General condition satisfactory/)

  // The keyboard: "?" outside a text shows the shortcuts; Alt+3 goes to the diagnoses.
  await exam.press('Escape')
  await page.locator('#visit-diagnoses').focus()
  await page.keyboard.press('?')
  await expect(dialog(page)).toContainText('Keyboard shortcuts of the visit')
  expect(await findings(page)).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog(page)).toHaveCount(0)
  await exam.focus()
  await page.keyboard.press('Alt+3')
  await expect(view.locator('#visit-diagnoses :focus')).toHaveCount(1)

  // A favourite: starred on the visit, listed on the charting page.
  await view.getByRole('button', { name: 'Add I10 to favourites' }).click()
  await expect(view.getByRole('button', { name: 'Remove I10 from favourites' })).toBeVisible()

  // Signed from the keyboard.
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')
  await page.keyboard.press('Alt+s')
  // The question is an alert dialog (light Confirm), as the library's confirm was a dialog.
  await expect(page.getByRole('alertdialog')).toContainText('Sign')
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign' }).click()
  await expect(view.getByText(/Signed by E2E doctor/)).toBeVisible()

  await page.goto('/forms/charting')
  await activeView(page).getByRole('tab', { name: 'Favourites' }).click()
  await expect(activeView(page).getByText('I10 — Essential (primary) hypertension')).toBeVisible()
})

test('copy forward marks what came from the last visit until it is changed', async ({ page }) => {
  await login(page, 'doctor')
  const first = await startedVisit(page, 7)
  expect(
    (
      await api(page, 'put', `/api/appointments/${first.id}/visit`, {
        version: 0,
        vitals: { bp_systolic: 150, bp_diastolic: 95, weight: 81 },
        chief_complaint: 'Headaches in the morning',
        diagnoses: [{ code: 'I10', primary: true }],
        orders: [],
      })
    ).status(),
  ).toBe(200)
  expect((await api(page, 'post', `/api/appointments/${first.id}/visit/sign`, { version: 1 })).status()).toBe(200)
  const { id } = await startedVisit(page, 9, first.patient)
  await page.goto(`/appointments/form/${id}`)
  const view = activeView(page)
  await view.getByRole('button', { name: 'Copy from last visit…' }).click()
  await expect(dialog(page)).toContainText('From the visit of')
  expect(await findings(page)).toEqual([])
  await dialog(page).getByRole('checkbox', { name: /Diagnoses/ }).uncheck()
  // Measurements copy only when asked for (issue 55, m7).
  await expect(dialog(page).getByRole('checkbox', { name: /Vitals/ })).not.toBeChecked()
  await dialog(page).getByRole('checkbox', { name: /Vitals/ }).check()
  await dialog(page).getByRole('button', { name: 'Copy the chosen parts' }).click()
  await expect(view.getByLabel('BP systolic')).toHaveValue('150')
  await expect(view.getByTestId('vitals-copied')).toContainText('copied — taken on')
  await expect(view.getByLabel('Chief complaint')).toHaveValue('Headaches in the morning')
  await expect(view.getByTestId('copied-mark')).toHaveCount(1)
  await expect(activeView(page).getByRole('status')).toContainText('Saved at')
  const saved = async () => (await (await api(page, 'get', `/api/appointments/${id}/visit`)).json()) as { vitals_copied_from: string; diagnoses: unknown[] }
  expect((await saved()).vitals_copied_from).toBe(day(1))
  expect((await saved()).diagnoses).toEqual([])

  // Measured again: the mark goes, on the screen and in the record.
  await view.getByLabel('BP systolic').fill('132')
  await expect(view.getByTestId('vitals-copied')).toHaveCount(0)
  await view.getByLabel('Chief complaint').fill('Headaches better')
  await expect(view.getByTestId('copied-mark')).toHaveCount(0)
  await expect.poll(async () => (await saved()).vitals_copied_from, { timeout: 10_000 }).toBe('')
})

test('the charting dialogs and page on a phone in Chinese: no serious or critical finding', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await login(page, 'doctor')
  const { id } = await startedVisit(page, 10)
  await context.addCookies([{ name: 'language', value: 'zh', url: test.info().project.use.baseURL! }])
  await page.goto(`/appointments/form/${id}`)
  const view = activeView(page)
  await expect(view.getByRole('toolbar')).toBeVisible()
  await view.getByRole('button', { name: '医嘱套餐…' }).click()
  await dialog(page).getByRole('combobox').click()
  await dialog(page).getByRole('option', { name: /上呼吸道感染（儿童）/ }).first().click()
  await expect(dialog(page).getByTestId('set-line')).toHaveCount(1)
  expect(await findings(page)).toEqual([])
  await page.keyboard.press('Escape')
  await view.getByRole('button', { name: '键盘快捷键' }).click()
  expect(await findings(page)).toEqual([])
  await page.keyboard.press('Escape')
  await view.getByRole('button', { name: '存为套餐…' }).click()
  expect(await findings(page)).toEqual([])
  await page.keyboard.press('Escape')

  await page.goto('/forms/charting')
  for (const tabName of ['医嘱套餐', '文本片段', '收藏']) {
    await activeView(page).getByRole('tab', { name: tabName }).click()
    await expect(activeView(page).getByRole('tab', { name: tabName })).toHaveAttribute('aria-selected', 'true')
    expect(await findings(page, 'view')).toEqual([])
  }
  await activeView(page).getByRole('tab', { name: '文本片段' }).click()
  await activeView(page).getByRole('button', { name: '新建片段' }).click()
  expect(await findings(page)).toEqual([])
})
