import { expect, test } from '@playwright/test'
import { api, bookFirstFree, day, doctorId, authenticate, unique } from './helpers'
import { mailTo } from './mail'

test('a patient confirms from the e-mail on a phone, the queue shows it live, and the link works once', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await page.setViewportSize({ width: 390, height: 844 })
  await authenticate(page, 'receptionist')
  const last = `Email-${unique()}`
  const address = `${last.toLowerCase()}@example.test`
  const r = await api(page, 'post', '/api/patients', { first_name: 'Lan', last_name: last, birth_date: '1990-02-03', sex: 'female', email: address, history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number; reminders: string }
  expect(patient.reminders).toBe('email')
  const on = day(2)
  const appointment = await bookFirstFree(page, patient.id, await doctorId(page), on, 10)

  // The desk's queue of that day, open before the patient answers.
  await page.goto(`/appointments/appointments?date=${on}`)
  const card = page.getByRole('listitem').filter({ hasText: last })
  await expect(card).toBeVisible()
  await expect(card.getByTestId('confirmed-by-patient')).toHaveCount(0)

  // The confirmation arrives at the clinic's mail server (the outbox sends every few seconds).
  await expect.poll(() => mailTo(address).length, { timeout: 30_000 }).toBeGreaterThan(0)
  const mail = mailTo(address)[0]
  expect(mail).not.toContain('Sore') // never the reason for the visit
  const link = /https?:\/\/\S+\/m\/\S+\.appointment\.\S+/.exec(mail)?.[0]
  expect(link, mail).toBeTruthy()
  const path = new URL(link!).pathname

  // The patient, signed in nowhere, on a phone.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const phone = await context.newPage()
  await phone.goto(path)
  await expect(phone.getByRole('heading', { name: 'Your appointment' })).toBeVisible()
  await expect(phone.getByText('Date and time')).toBeVisible()
  // Its four languages, by the switcher.
  for (const [lang, heading, confirm] of [
    ['ru', 'Ваш приём', 'Подтверждаю, приду'],
    ['zh', '您的预约', '确认我会到'],
    ['vi', 'Lịch hẹn của bạn', 'Xác nhận tôi sẽ đến'],
    ['en', 'Your appointment', 'Confirm I will come'],
  ]) {
    await phone.getByRole('combobox').selectOption(lang)
    await expect(phone.getByRole('heading', { name: heading })).toBeVisible()
    await expect(phone.getByRole('button', { name: confirm })).toBeVisible()
    await expect(phone.locator('html')).toHaveAttribute('lang', lang)
  }
  await phone.getByRole('button', { name: 'Confirm I will come' }).click()
  await expect(phone.getByText('Thank you: your appointment is confirmed.')).toBeVisible()

  // The desk sees it without reloading.
  await expect(card.getByTestId('confirmed-by-patient')).toBeVisible()
  const a = (await (await api(page, 'get', `/api/appointments/${appointment}`)).json()) as { confirmed_at: string | null }
  expect(a.confirmed_at).not.toBeNull()

  // The same link a second time: refused, nothing changes.
  await phone.goto(path)
  await expect(phone.getByText('This link has already been used. Each link works once.')).toBeVisible()
  await expect(phone.getByRole('button', { name: 'Confirm I will come' })).toHaveCount(0)
  expect((await phone.request.post(`/api${path}/confirm`)).status()).toBe(409)
  await context.close()
})
