import { expect, test } from '@playwright/test'
import { api, doctorId, authenticate, login, unique } from './helpers'
import { axe, mailTo } from './mail'

test('a patient books on a phone in Vietnamese with the e-mailed code, and the desk accepts it in the queue', async ({ page, browser }) => {
  test.setTimeout(180_000)
  // The clinic opens online booking: the E2E doctor, every day 08:00–17:00 with a lunch break.
  await login(page, 'admin')
  const doctor = await doctorId(page)
  const current = (await (await api(page, 'get', '/api/settings/online-booking')).json()) as { version: number }
  const week = Array.from({ length: 7 }, () => ({ open: '08:00', close: '17:00', breaks: [{ from: '12:00', to: '13:00' }] }))
  const saved = await api(page, 'put', '/api/settings/online-booking', {
    enabled: true, auto_book: false, ahead_days: 30, notice_minutes: 2 * 24 * 60, holidays: [], version: current.version,
    doctors: [{ doctor_id: doctor, enabled: true, specialty: 'Y học gia đình', offers: [{ type: 'new', slot_minutes: 30 }], week, days_off: [] }],
  })
  expect(saved.status(), await saved.text()).toBe(200)

  // The patient, signed in nowhere, on a phone.
  const last = `Tran${unique()}`
  const address = `${last.toLowerCase()}@example.test`
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const phone = await context.newPage()
  await phone.goto('/book?lang=vi')
  await expect(phone.getByRole('heading', { name: 'Chọn bác sĩ' })).toBeVisible()
  await expect(phone.locator('html')).toHaveAttribute('lang', 'vi')
  expect(await axe(phone)).toEqual([])
  await phone.getByRole('radio', { name: /E2E doctor/ }).check()
  await phone.getByRole('button', { name: 'Tiếp' }).click()
  await expect(phone.getByRole('heading', { name: 'Chọn ngày' })).toBeFocused()
  await phone.getByRole('list').getByRole('button').first().click()
  await expect(phone.getByRole('heading', { name: 'Chọn giờ' })).toBeFocused()
  await phone.getByRole('list').getByRole('button').first().click()
  await expect(phone.getByRole('heading', { name: 'Thông tin của bạn' })).toBeFocused()
  // Nothing filled: each field says so, tied to it.
  await phone.getByRole('button', { name: 'Gửi mã cho tôi' }).click()
  await expect(phone.getByLabel('Tên', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(phone.getByLabel('Tên', { exact: true })).toHaveAccessibleDescription('Vui lòng điền mục này.')
  expect(await axe(phone)).toEqual([])
  await phone.getByLabel('Tên', { exact: true }).fill('Lan')
  await phone.getByLabel('Họ', { exact: true }).fill(last)
  await phone.getByLabel('Ngày sinh').fill('1990-04-05')
  await phone.getByLabel('Địa chỉ e-mail của bạn').fill(address)
  await phone.getByRole('button', { name: 'Gửi mã cho tôi' }).click()
  await expect(phone.getByRole('heading', { name: 'Nhập mã' })).toBeFocused()

  // The code arrives at the clinic's mail server, in Vietnamese.
  await expect.poll(() => mailTo(address).length, { timeout: 30_000 }).toBeGreaterThan(0)
  const code = /\b\d{6}\b/.exec(mailTo(address)[0]!)?.[0]
  expect(code).toBeTruthy()
  await phone.getByLabel('Mã', { exact: true }).fill(code === '000000' ? '111111' : '000000')
  await phone.getByRole('button', { name: 'Xác nhận đặt lịch' }).click()
  await expect(phone.getByLabel('Mã', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await phone.getByLabel('Mã', { exact: true }).fill(code!)
  await phone.getByRole('button', { name: 'Xác nhận đặt lịch' }).click()
  await expect(phone.getByText('Phòng khám đã nhận yêu cầu của bạn. Phòng khám sẽ nhắn tin xác nhận.')).toBeVisible()
  expect(await axe(phone)).toEqual([])
  await context.close()

  // The desk finds it above the day's queue, marked as requested, and registers the patient.
  const deskContext = await browser.newContext()
  const desk = await deskContext.newPage()
  await authenticate(desk, 'receptionist')
  const requests = (await (await api(desk, 'get', '/api/booking-requests')).json()) as { data: { last_name: string; starts_at: string }[] }
  const request = requests.data.find((r) => r.last_name === last)!
  expect(request).toBeTruthy()
  const on = new Date(request.starts_at).toLocaleDateString('en-CA')
  await desk.goto(`/appointments/appointments?date=${on}`)
  const section = desk.getByRole('region', { name: /online booking request/ })
  await expect(section.getByText('Requested online')).toBeVisible()
  await expect(section.getByText('New patient')).toBeVisible()
  await section.getByRole('button', { name: `Accept: Lan ${last}` }).click() // the name in English order
  const dialog = desk.getByRole('dialog')
  await expect(dialog.getByRole('radio', { name: 'Register a new patient from the request' })).toBeChecked()
  await expect(dialog.getByLabel('Last name')).toHaveValue(last)
  await expect(dialog.getByLabel('E-mail')).toHaveValue(address)
  await dialog.getByLabel('Sex').selectOption({ label: 'Female' })
  await dialog.getByRole('button', { name: 'Accept' }).click()
  await expect(desk.getByText('The appointment is booked.')).toBeVisible()
  await expect(section).toHaveCount(0)
  await expect(desk.getByRole('main').getByText(last).first()).toBeVisible()
  // The patient gets the usual confirmation of the booked appointment.
  await expect.poll(() => mailTo(address).length, { timeout: 30_000 }).toBeGreaterThan(1)
})
