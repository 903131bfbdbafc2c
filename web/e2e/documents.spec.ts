import { expect, test, type Browser, type Page } from '@playwright/test'
import { activeView, api, bookFirstFree, day, doctorId, openCountingPrints, unique } from './helpers'

// A drawn signature, as the profile's pad would make it.
const SIGNATURE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><path d="M10 40 C 40 10, 70 50, 100 20 S 160 40, 190 15" stroke="#000" fill="none" stroke-width="3"/></svg>'
const HOSTILE = '<img src=x onerror=alert(1)>'

const open = (browser: Browser, who: string, lang: string) => openCountingPrints(browser, who, lang)

// The patient is 41 (and ten days) whatever today is: her documents say "41 год", a plural
// form of its own, in any year.
const born = new Date(Date.now() - 10 * 86_400_000)
born.setFullYear(born.getFullYear() - 41)
const pad = (n: number) => String(n).padStart(2, '0')
const BIRTH = `${born.getFullYear()}-${pad(born.getMonth() + 1)}-${pad(born.getDate())}`

/** A patient whose first name is markup, seen at a signed visit today with a diagnosis and two orders. */
async function signedVisit(desk: Page, doc: Page) {
  const last = `Doc${unique()}`
  const r = await api(desk, 'post', '/api/patients', { first_name: HOSTILE, last_name: last, birth_date: BIRTH, sex: 'female', history: { allergy_status: 'none' } })
  expect(r.status()).toBe(201)
  const patient = (await r.json()) as { id: number; mrn: string }
  const appointment = await bookFirstFree(desk, patient.id, await doctorId(desk), day(0), 15)
  expect((await api(desk, 'post', `/api/appointments/${appointment}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appointment}/start`, {})).status()).toBe(200)
  const saved = await api(doc, 'put', `/api/appointments/${appointment}/visit`, {
    version: 0,
    chief_complaint: 'Sốt, ho',
    diagnoses: [{ code: 'J06.9', primary: true }],
    orders: [{ code: 'CBC', note: '' }, { code: 'XR-CHEST', note: 'PA' }],
  })
  expect(saved.status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appointment}/visit/sign`, { version: 1 })).status()).toBe(200)
  return { patient, last, appointment }
}

test('a doctor issues a medical certificate in Vietnamese from a signed visit: printed with the signature and a QR code whose check shows only what it may, valid, then cancelled', async ({ browser }) => {
  test.slow()
  const desk = await open(browser, 'receptionist', 'en')
  const doc = await open(browser, 'doctor', 'vi')
  const xsrf = (await doc.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
  const signed = await doc.request.put('/api/profile/signature', { headers: { 'X-XSRF-TOKEN': xsrf }, multipart: { file: { name: 'signature.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SIGNATURE) } } })
  expect(signed.status()).toBeLessThan(300)
  const { patient, last, appointment } = await signedVisit(desk, doc)

  // From the visit's page: the documents card, a template, its fields, the filled preview.
  await doc.goto(`/appointments/form/${appointment}`)
  const card = activeView(doc).getByTestId('documents')
  await expect(card.getByRole('heading', { name: 'Giấy tờ', exact: true })).toBeVisible()
  await card.getByRole('button', { name: 'Cấp giấy tờ' }).click()
  const dialog = doc.getByRole('dialog', { name: 'Cấp giấy tờ' })
  await dialog.getByRole('combobox', { name: 'Mẫu' }).click()
  await dialog.getByRole('option', { name: 'Giấy xác nhận khám bệnh — Tiếng Việt' }).click()
  await dialog.getByLabel('Số ngày nghỉ').fill('3')
  // Typed the Vietnamese way (issue 55, m3).
  await dialog.getByLabel('Nghỉ từ ngày').fill('25/11/2026')
  await dialog.getByLabel('Nghỉ từ ngày').press('Enter')
  const preview = dialog.getByRole('region', { name: 'Xem trước' })
  await expect(preview).toContainText('Đề nghị cho nghỉ ngơi 3 ngày, từ ngày 25/11/2026 đến hết ngày 27/11/2026')
  await expect(preview).toContainText(`${last} ${HOSTILE}`)
  // The clinic's public address is not set: the QR code will point where staff browse, and
  // the doctor is told so before issuing (clinic-day review 2026-11-28, m23).
  const origin = new URL(doc.url()).origin
  await expect(dialog.getByTestId('no-public-address')).toContainText(`Mã QR và đường dẫn của giấy tờ này trỏ tới ${origin}`)
  await dialog.getByRole('button', { name: 'Cấp và in' }).click()

  // The print: clinic header, the patient (markup as text), the diagnosis, the fields, the signature, the QR code.
  await expect(doc).toHaveURL(/\/documents\/\d+\/print$/)
  const sheet = doc.getByTestId('document-sheet')
  await expect(sheet.getByRole('heading', { name: 'Giấy xác nhận khám bệnh' })).toBeVisible()
  // Not a sick-leave paper, and dressed as Vietnamese papers are: national header, captioned signature, room for the seal.
  await expect(sheet).toContainText('không thay thế Giấy chứng nhận nghỉ việc hưởng bảo hiểm xã hội')
  await expect(sheet.getByTestId('state-header')).toContainText('CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM')
  await expect(sheet).toContainText('BÁC SĨ KHÁM BỆNH (Ký, ghi rõ họ tên)')
  await expect(sheet.getByTestId('seal-place')).toBeVisible()
  await expect(sheet).toContainText(`${last} ${HOSTILE}`)
  await expect(sheet.locator('img[src="x"]')).toHaveCount(0)
  await expect(sheet).toContainText('J06.9')
  await expect(sheet).toContainText('3 ngày')
  await expect(sheet).toContainText(/Số MC-\d{4}-\d{6}/)
  const signature = sheet.getByRole('img', { name: 'Chữ ký bác sĩ' })
  await expect.poll(() => signature.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await expect(sheet.getByLabel('Mã QR để kiểm tra giấy tờ này')).toBeVisible()
  await expect.poll(() => doc.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  // Said again beside the print, and never on the paper.
  await expect(activeView(doc).getByTestId('no-public-address')).toContainText(origin)
  await expect(sheet.getByTestId('no-public-address')).toHaveCount(0)

  // The QR code's address, opened by the receiver without an account: valid, and nothing more of the patient than initials and birth year.
  const url = (await sheet.getByText(/\/verify\//).textContent())!.trim()
  const receiver = await browser.newContext({ locale: 'vi-VN' })
  const check = await receiver.newPage()
  await check.goto(url)
  await expect(check.getByRole('status')).toHaveText('Hợp lệ: do phòng khám này cấp')
  const shown = await check.locator('main').innerText()
  expect(shown).toContain(String(born.getFullYear()))
  expect(shown).toMatch(/MC-\d{4}-\d{6}/)
  // (The patient number may read like the document's own number, MC-2026-000001: that one aside.)
  for (const never of [last, patient.mrn, 'J06.9', 'Sốt', `${pad(born.getDate())}/${pad(born.getMonth() + 1)}/${born.getFullYear()}`, 'img']) expect(shown.replace(/MC-\d{4}-\d{6}/, '')).not.toContain(never)

  // Cancelled with a reason from the visit's card: the check says so.
  await doc.goto(`/appointments/form/${appointment}`)
  await card.getByRole('button', { name: /^Hủy giấy tờ MC-/ }).click()
  await doc.getByLabel('Lý do hủy').fill('Sai ngày nghỉ')
  await doc.locator('[role=dialog], [role=alertdialog]').filter({ has: doc.getByLabel('Lý do hủy') }).getByRole('button', { name: 'Hủy giấy tờ', exact: true }).click()
  await expect(card.getByText('Đã hủy', { exact: true })).toBeVisible()
  await check.reload()
  await expect(check.getByRole('status')).toHaveText('Đã hủy: không còn hiệu lực')
  await receiver.close()

  // A laboratory request lists the visit's laboratory orders (the X-ray goes on the imaging request).
  const templates = ((await (await api(doc, 'get', '/api/document-templates?kind=lab_request&language=en')).json()) as { data: { id: number }[] }).data
  const lab = await api(doc, 'post', '/api/documents', { template_id: templates[0].id, patient_id: patient.id, appointment_id: appointment, fields: {} })
  expect(lab.status()).toBe(201)
  await doc.goto(`/documents/${((await lab.json()) as { id: number }).id}/print`)
  await expect(sheet).toContainText('CBC Complete blood count')
  await expect(sheet.locator('li', { hasText: 'CBC' })).toHaveCount(1)
  await expect(sheet.locator('li', { hasText: 'XR-CHEST' })).toHaveCount(0)

  // The doctor's account is shared with later tests, which start without a signature.
  const me = (await (await api(doc, 'get', '/api/user')).json()) as { id: number }
  expect((await api(doc, 'get', `/api/remove-signature/${me.id}`)).status()).toBe(204)
  await doc.context().close()
  await desk.context().close()
})

test('an administrator writes a template in Russian, inserting placeholders at the cursor, and the preview fills them for a chosen visit; a nurse may not', async ({ browser }) => {
  const desk = await open(browser, 'receptionist', 'en')
  const doctor = await open(browser, 'doctor', 'en')
  const { last } = await signedVisit(desk, doctor)
  await doctor.context().close()
  await desk.context().close()

  const admin = await open(browser, 'admin', 'ru')
  await admin.goto('/forms/templates/new')
  const view = activeView(admin)
  const name = `Справка в бассейн ${unique()}`
  await view.getByLabel('Название').fill(name)
  const body = view.getByLabel('Текст документа')
  await body.fill('# Справка\nПациент: ')
  await view.getByTitle('{{patient.name}}').click()
  await body.press('End')
  await body.pressSequentially(', ')
  await view.getByTitle('{{patient.age}}').click()
  await body.press('End')
  await body.press('Enter')
  await body.pressSequentially('- ')
  await view.getByTitle('{{visit.diagnoses}}').click()
  await expect(body).toHaveValue('# Справка\nПациент: {{patient.name}}, {{patient.age}}\n- {{visit.diagnoses}}')

  // The preview, for the patient's visit.
  await view.getByLabel('Пациент для предпросмотра').fill(last)
  await admin.getByRole('option').filter({ hasText: last }).click()
  await view.getByLabel('Приём для предпросмотра').click()
  await admin.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first().click()
  const preview = view.getByTestId('template-preview')
  await expect(preview).toContainText(`Пациент: ${last} ${HOSTILE}, 41 год`)
  await expect(preview).toContainText('J06.9 Острая инфекция верхних дыхательных путей')

  // A placeholder that does not exist is refused, naming the line; then the template saves.
  await body.press('End')
  await body.pressSequentially('\n{{patient.passport}}')
  await view.getByRole('button', { name: 'Сохранить' }).click()
  await expect(view.getByRole('alert')).toContainText('Строка 4: нет такой подстановки {{patient.passport}}')
  await body.fill('# Справка\nПациент: {{patient.name}}, {{patient.age}}\n- {{visit.diagnoses}}')
  await view.getByRole('button', { name: 'Сохранить' }).click()
  await expect(admin.getByText('Шаблон сохранён')).toBeVisible()
  await expect(admin).toHaveURL(/\/forms\/templates\/\d+$/)
  await admin.goto('/forms/templates')
  await expect(activeView(admin).getByRole('link', { name })).toBeVisible()
  await admin.context().close()

  // A nurse neither writes templates nor issues documents.
  const nurse = await open(browser, 'nurse', 'en')
  expect((await api(nurse, 'post', '/api/document-templates', { name: 'X', kind: 'custom', language: 'en', paper: 'a5-portrait', body: 'x' })).status()).toBe(403)
  expect((await api(nurse, 'post', '/api/documents', { template_id: 1, patient_id: 1 })).status()).toBe(403)
  await nurse.context().close()
})
