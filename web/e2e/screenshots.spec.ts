import { test, type Page, type WebSocketRoute } from '@playwright/test'
import { dataRows, PASSWORD, totp } from './helpers'

// Screenshots of each screen for a person to look at: `make screenshots` writes them to
// web/test-results/screens. The normal test run leaves this file out (playwright.config.ts).

const viewports = { desktop: { width: 1366, height: 800 }, phone: { width: 390, height: 844 } }
const languages = ['en', 'ru', 'zh', 'vi']


/** A prescriber's own words on the demo prescription, in each language: dose, frequency, duration, instructions; dose, frequency; notes. */
const SIG: Record<string, string[]> = {
  en: ['1 tablet', 'once a day, morning', '30 days', 'Check blood pressure weekly', '1–2 tablets', 'every 6 hours if needed', 'Return in 4 weeks with the lipid results.'],
  ru: ['1 таблетка', '1 раз в день, утром', '30 дней', 'Контроль АД еженедельно', '1–2 таблетки', 'каждые 6 часов при необходимости', 'Повторный приём через 4 недели с липидограммой.'],
  zh: ['每次1片', '每日1次，早晨', '30天', '每周监测血压', '每次1–2片', '必要时每6小时1次', '4周后携血脂结果复诊。'],
  vi: ['1 viên', 'ngày 1 lần, buổi sáng', '30 ngày', 'Theo dõi huyết áp hằng tuần', '1–2 viên', 'mỗi 6 giờ khi cần', 'Tái khám sau 4 tuần kèm kết quả mỡ máu.'],
}

/** A discount's reason, as the front desk writes it in each language. */
const DISCOUNT: Record<string, string> = { en: 'Senior citizen', ru: 'Пенсионер', zh: '老年人优惠', vi: 'Người cao tuổi' }

async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(400)
}

for (const [device, viewport] of Object.entries(viewports)) {
  for (const lang of languages) {
    test(`screens ${device} ${lang}`, async ({ page, context }) => {
      test.setTimeout(240_000)
      await page.setViewportSize(viewport)
      // The push socket passes through a route that can be cut, to show the offline indicator.
      let live = true
      const sockets: WebSocketRoute[] = []
      await page.routeWebSocket(/\/app\//, (ws) => {
        if (!live) return void ws.close({ code: 1001, reason: 'offline' })
        sockets.push(ws)
        ws.connectToServer()
      })
      await context.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      const shot = (name: string) => page.screenshot({ path: `test-results/screens/${name}-${device}-${lang}.png`, fullPage: true })
      await page.goto('/login')
      await settle(page)
      await shot('login')
      await page.locator('button[type=submit]').click()
      await shot('login-invalid')
      // The form's labels are in the page's language: fill it by name.
      await page.locator('input[name=username]').fill('admin')
      await page.locator('input[name=password]').fill(PASSWORD)
      await page.locator('button[type=submit]').click()
      await page.waitForURL((u) => !u.pathname.startsWith('/login'))
      await page.getByRole('grid', { name: /\d{4}/ }).waitFor()
      await page.getByTestId('chart-ages').waitFor()
      await settle(page)
      await page.waitForTimeout(1200) // the charts' entry animation
      await shot('dashboard')
      await page.goto('/masterfile/patients')
      await page.goto('/administrator/roles')
      await settle(page)
      await shot('later-page')
      if (device === 'phone') {
        await page.locator('header button').first().click()
        await settle(page)
        await shot('menu-open')
      } else {
        await page.locator('nav a').nth(2).click({ button: 'right' })
        await settle(page)
        await shot('tab-menu')
        await page.keyboard.press('Escape')
        await page.locator('button[class*=settingsButton]').click()
        await settle(page)
        await shot('settings')
      }
      // The patient register: a patient with history, the list, the form and the chart.
      const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
      // Each run registers the same patient: as a different person from the earlier runs'.
      const twins = (await (await page.request.post('/api/patients/duplicates', { headers: { 'X-XSRF-TOKEN': xsrf }, data: { first_name: 'An', middle_name: 'Văn', last_name: 'Nguyễn', sex: 'male', birth_date: '1968-03-14', phone: '+84 90 123 4567' } })).json()).data as { id: number }[]
      const r = await page.request.post('/api/patients', {
        headers: { 'X-XSRF-TOKEN': xsrf },
        data: { distinct_from: twins.map((x) => x.id), first_name: 'An', middle_name: 'Văn', last_name: 'Nguyễn', sex: 'male', birth_date: '1968-03-14', phone: '+84 90 123 4567', blood_type: 'O+',
          address: '12 Lê Lợi, Huế', history: { allergies: [{ substance: 'Penicillin', reaction: 'Rash', severity: 'severe' }], chronic: ['hypertension', 'diabetes'] },
          emergency_contact: { name: 'Nguyễn Thị Lan', relation: 'Wife', phone: '+84 90 765 4321' } },
      })
      const p = await r.json()
      await page.goto('/masterfile/patients')
      await dataRows(page).first().waitFor()
      await settle(page)
      await shot('patients')
      await page.goto(`/masterfile/patient_form/${p.id}`)
      await settle(page)
      await shot('patient-form')
      // Someone else saves this patient (a request of no socket, so this page hears it).
      await page.waitForFunction(() => document.documentElement.dataset.push === 'connected')
      await page.request.put(`/api/patients/${p.id}`, { headers: { 'X-XSRF-TOKEN': xsrf }, data: { ...p, phone: '+84 90 000 0000' } })
      await page.locator('.ant-alert-warning').waitFor()
      await settle(page)
      await shot('patient-form-changed')
      // Live updates drop, and come back.
      live = false
      for (const ws of sockets.splice(0)) await ws.close({ code: 1001, reason: 'offline' })
      await page.getByTestId('live-paused').waitFor()
      await page.getByTestId('live-paused').hover()
      await page.waitForTimeout(400)
      await page.screenshot({ path: `test-results/screens/live-paused-${device}-${lang}.png` })
      live = true
      await page.getByTestId('live-paused').waitFor({ state: 'detached', timeout: 60_000 })
      await page.goto(`/masterfile/profile/${p.id}/${p.mrn}`)
      await settle(page)
      await shot('patient-chart')
      // The day's queue, the week, the booking form and a visit with its diagnosis.
      const call = (method: string, path: string, data?: unknown) => page.request.fetch(path, { method, data, headers: { 'X-XSRF-TOKEN': xsrf } })
      // The run's own doctor: the seeded ones have full queues from 08:00.
      const doctors = ((await (await call('GET', '/api/doctors')).json()).data as { id: number; name: string }[]).filter((d) => d.name === 'E2E doctor')
      const slot = Object.keys(viewports).indexOf(device) * 4 + languages.indexOf(lang)
      const startsAt = new Date()
      startsAt.setHours(8 + slot, 0, 0, 0)
      const a = await (await call('POST', '/api/appointments', { patient_id: p.id, doctor_id: doctors[0].id, starts_at: startsAt.toISOString(), duration_minutes: 20, type: 'new', reason: 'Headache, dizziness' })).json()
      await call('POST', `/api/appointments/${a.id}/arrive`, {})
      await call('POST', `/api/appointments/${a.id}/start`, {})
      await call('PUT', `/api/appointments/${a.id}/visit`, {
        version: 0, chief_complaint: 'Headache for two days', examination: 'Alert, BP raised, no focal signs',
        vitals: { bp_systolic: 162, bp_diastolic: 98, heart_rate: 84, respiratory_rate: 16, temperature: 36.8, spo2: 98, weight: 74, height: 168 },
        diagnoses: [{ code: 'I10', primary: true }, { code: 'R51' }], orders: [{ code: 'LIPID', note: '' }, { code: 'ECG', note: '' }],
      })
      await page.goto('/appointments/appointments')
      const queue = page.locator('#main > div:not([hidden])')
      await queue.getByRole('table').getByRole('cell').or(queue.getByRole('listitem')).first().waitFor()
      await settle(page)
      await shot('appointments')
      // Book appointment: the queue's primary button, in whatever language.
      await queue.getByTestId('book').click()
      await page.getByRole('dialog').waitFor()
      await settle(page)
      await shot('appointment-book')
      await page.keyboard.press('Escape')
      await page.goto('/appointments/appointments?view=week')
      await settle(page)
      await shot('appointments-week')
      await page.goto(`/appointments/form/${a.id}`)
      await page.locator('.ant-input-number').first().waitFor()
      await settle(page)
      await shot('diagnosis')
      // Prescriptions: the prescriber's profile and signature, the clinic's header, a
      // prescription on the visit, its print preview and issued print, the blank form.
      const view = page.locator('#main > div:not([hidden])')
      const profile = await (await call('GET', '/api/get-profile')).json()
      await call('PATCH', '/api/update-profile', { version: profile.version, specialisations: ['Internal medicine', 'Cardiology'], licences: [{ number: 'BYT-004217', issuer: 'Bộ Y tế', valid_from: '2018-01-01', valid_until: '2030-12-31' }] })
      const clinic = await (await call('GET', '/api/settings/clinic')).json()
      await call('PUT', '/api/settings/clinic', { version: clinic.version, name: 'Phòng khám Đa khoa An Bình', address: '25 Trần Hưng Đạo, Quận 1, TP. Hồ Chí Minh', phone: '028 3823 4567' })
      await page.goto('/profile/edit')
      const pad = view.locator('canvas')
      await pad.scrollIntoViewIfNeeded()
      const box = (await pad.boundingBox())!
      await page.mouse.move(box.x + 30, box.y + 100)
      await page.mouse.down()
      for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + 30 + i * 22, box.y + 100 + (i % 2 ? -40 : 20) + i * 2, { steps: 5 })
      await page.mouse.up()
      await view.locator('.ant-card').nth(1).locator('button.ant-btn-primary').click()
      await view.locator('.ant-card').nth(1).locator('img').waitFor()
      await settle(page)
      await shot('profile-edit')
      // Lines chosen from the catalogue, named in the page's language as the editor would; the
      // doctor's own words in that language too.
      const medicine = async (q: string) => ((await (await call('GET', `/api/medicines?q=${encodeURIComponent(q)}`)).json()).data[0]) as { id: number; label: string; unit_label: string }
      const [amlodipine, paracetamol] = [await medicine('amlodipine 5'), await medicine('paracetamol 500 mg tablet')]
      const words = SIG[lang]
      const rx = await (await call('POST', `/api/appointments/${a.id}/prescriptions`, {
        items: [
          { medicine_id: amlodipine.id, medicine: amlodipine.label, dose: words[0], route: 'oral', frequency: words[1], duration: words[2], quantity: '30', unit: amlodipine.unit_label, refills: 2, instructions: words[3] },
          { medicine_id: paracetamol.id, medicine: paracetamol.label, dose: words[4], route: 'oral', frequency: words[5], quantity: '20', unit: paracetamol.unit_label },
        ],
        notes: words[6],
      })).json()
      await page.goto(`/appointments/form/${a.id}`)
      await view.locator('[data-testid=rx-item]').first().waitFor()
      await settle(page)
      await shot('diagnosis-prescriptions')
      // The prescription's own edit button (its first; print is a link).
      await view.locator('[data-testid=rx-item]').first().getByRole('button').first().click()
      await view.locator('[data-testid=rx-line]').first().waitFor()
      await settle(page)
      await shot('prescription-editor')
      await view.locator('[data-testid=rx-line]').first().locator('xpath=ancestor::section[1]').screenshot({ path: `test-results/screens/prescription-editor-card-${device}-${lang}.png` })
      // The patient's penicillin allergy caught as a line is written.
      await view.locator('[data-testid=rx-line]').first().locator('input[role=combobox]').first().fill('Amoxicillin 500 mg capsule')
      await view.locator('[data-testid=rx-safety]').first().waitFor()
      await settle(page)
      await view.locator('[data-testid=rx-line]').first().locator('xpath=ancestor::section[1]').screenshot({ path: `test-results/screens/prescription-safety-${device}-${lang}.png` })
      await page.goto(`/prescriptions/print/${rx.id}`)
      await view.locator('[data-testid=rx-sheet]').waitFor()
      await settle(page)
      await shot('prescription-preview')
      await call('POST', `/api/prescriptions/${rx.id}/print`, { version: rx.version })
      await page.reload()
      await view.locator('[data-testid=rx-sheet] img').waitFor()
      await settle(page)
      await shot('prescription-print')
      await page.emulateMedia({ media: 'print' })
      await shot('prescription-paper')
      await page.emulateMedia({ media: 'screen' })
      await page.goto('/forms/blankPrescription')
      await view.locator('[data-testid=rx-line]').first().waitFor()
      await settle(page)
      await shot('blank-prescription')
      await page.goto('/user-profile/user-profile')
      await view.locator('[data-testid=activity]').first().waitFor()
      await settle(page)
      await shot('my-profile')
      await page.goto('/administrator/medicines')
      await view.locator('.ant-table-row').first().waitFor()
      await settle(page)
      await shot('medicines')
      await page.goto('/administrator/medicine-safety')
      await settle(page)
      await shot('medicine-safety')
      // The price list: the starter services (named in the first run's language), priced.
      if ((await (await call('POST', '/api/services/starter', {})).json()).added > 0) {
        const list = (await (await call('GET', '/api/services')).json()).data as { id: number; code: string; name: string; category: string; version: number }[]
        for (const [i, sv] of list.entries()) await call('PUT', `/api/services/${sv.id}`, { ...sv, price: 15000 + i * 12550, active: true })
        await call('PUT', '/api/fees/settings', { currency: 'PHP', consultation: { new: 'CONS-NEW', 'follow-up': 'CONS-FU' }, version: 0 })
      }
      await page.goto('/administrator/services')
      await view.locator('.ant-table-row').first().waitFor()
      await settle(page)
      await shot('services')
      // Fees: the visit's bill (its consultation fee added by the settings, a laboratory test,
      // a discount with its reason), finalised and part paid in cash; its prints; the reports.
      const services = (await (await call('GET', '/api/services')).json()).data as { id: number; category: string }[]
      let bill = await (await call('POST', `/api/appointments/${a.id}/bill/lines`, { service_id: services.find((sv) => sv.category === 'laboratory')!.id, quantity: 1 })).json()
      bill = await (await call('PUT', `/api/bills/${bill.id}`, { discount_kind: 'percent', discount_value: 2000, discount_reason: DISCOUNT[lang], notes: '', version: bill.version })).json()
      bill = await (await call('POST', `/api/bills/${bill.id}/finalise`, { version: bill.version })).json()
      const part = Math.round(bill.total / 200) * 100
      await call('POST', `/api/bills/${bill.id}/payments`, { method: 'cash', amount: part, tendered: Math.ceil(part / 50000) * 50000 })
      await page.goto(`/appointments/form/${a.id}`)
      await view.getByTestId('bill').waitFor()
      await settle(page)
      await shot('visit-bill')
      await page.goto('/appointments/appointments')
      await view.getByTestId('tag-to-pay').first().waitFor()
      await settle(page)
      await shot('queue-to-pay')
      await page.goto(`/bills/${bill.id}`)
      await view.getByTestId('bill').waitFor()
      await settle(page)
      await shot('bill')
      await view.getByTestId('bill').locator('.ant-btn-primary').first().click()
      await page.getByRole('dialog').locator('input[inputmode=decimal]').nth(1).fill(String(Math.ceil(bill.balance / 10000) * 100))
      await settle(page)
      await shot('bill-payment')
      await page.keyboard.press('Escape')
      await page.goto(`/bills/${bill.id}/print/statement`)
      await view.getByTestId('statement-sheet').waitFor()
      await settle(page)
      await shot('bill-statement')
      await page.goto(`/bills/${bill.id}/print/receipt`)
      await view.getByTestId('receipt-sheet').waitFor()
      await settle(page)
      await shot('bill-receipt')
      for (const tab of ['cash-up', 'bills', 'revenue', 'outstanding']) {
        await page.goto(`/fees/reports?tab=${tab}`)
        await view.locator('.ant-table').first().waitFor()
        await settle(page)
        await shot(`reports-${tab}`)
      }
      await page.goto('/dashboard')
      await view.getByTestId('figure-collected').waitFor()
      await settle(page)
      await shot('dashboard-collected')
      await page.goto('/administrator/clinic')
      await settle(page)
      await shot('clinic')
      await page.goto('/administrator/users')
      await view.locator('.ant-table-row').first().waitFor()
      await settle(page)
      await shot('users')
      await view.locator('.ant-table-row a').first().click()
      await view.locator('form').first().waitFor()
      await settle(page)
      await shot('user-edit')
      await page.goto('/administrator/roles')
      await view.locator('.ant-checkbox').first().waitFor()
      await settle(page)
      await shot('roles')
      // Emergency access for the receptionist, as the administrator grants it and as they see it.
      const accounts = (await (await call('GET', '/api/users?q=receptionist')).json()).data as { id: number; username: string }[]
      const rec = accounts.find((u) => u.username === 'receptionist')!
      await call('DELETE', `/api/users/${rec.id}/emergency-access`)
      await page.goto(`/administrator/users/edit/${rec.id}`)
      await view.locator('[data-testid=emergency-card]').waitFor()
      await settle(page)
      await shot('user-edit-emergency-form')
      await call('POST', `/api/users/${rec.id}/emergency-access`, { permissions: ['write diagnosis', 'write prescription'], hours: 4, reason: 'Night shift: Dr Lan unreachable, patient in pain' })
      await page.reload()
      await view.locator('[data-testid=emergency-card] .ant-alert').waitFor()
      await settle(page)
      await shot('user-edit-emergency-active')
      const theirs = await page.context().browser()!.newContext({ viewport })
      await theirs.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      const recPage = await theirs.newPage()
      await recPage.goto('/login')
      await recPage.locator('input[name=username]').fill('receptionist')
      await recPage.locator('input[name=password]').fill(PASSWORD)
      await recPage.locator('button[type=submit]').click()
      await recPage.locator('[data-testid=emergency-banner]').waitFor()
      await settle(recPage)
      await recPage.screenshot({ path: `test-results/screens/emergency-banner-${device}-${lang}.png`, fullPage: true })
      await recPage.request.get(`/api/patients/${p.id}`)
      await theirs.close()
      await call('DELETE', `/api/users/${rec.id}/emergency-access`)
      // The audit log, what-I-can-do and the role preview.
      await page.goto('/administrator/audit')
      await view.locator('.ant-table-row').first().waitFor()
      await settle(page)
      await shot('audit')
      await page.goto('/permission/directive')
      await view.locator('[data-testid=directive-permissions]').waitFor()
      await settle(page)
      await shot('directive')
      await page.goto('/permission/page')
      await view.locator('.ant-radio-button-wrapper').nth(3).click()
      await settle(page)
      await shot('role-preview')
      await view.locator('button.ant-btn-primary').click()
      await page.locator('[data-testid=preview-banner]').waitFor()
      await settle(page)
      await shot('role-preview-active')
      await page.locator('[data-testid=preview-exit]').click()
      await page.goto('/no/such/page')
      await settle(page)
      await shot('not-found')
      // Two-factor sign-in, as a new account of this run sets it up and then signs in.
      const tf = { username: `tf-${device}-${lang}-${Date.now() % 100000}`, password: 'lantern orchard seven glacier' }
      await call('POST', '/api/users', { ...tf, name: 'Trần Thị Mai', roles: ['doctor'] })
      const mine = await page.context().browser()!.newContext({ viewport })
      await mine.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      const tfPage = await mine.newPage()
      const tfShot = (name: string) => tfPage.screenshot({ path: `test-results/screens/${name}-${device}-${lang}.png`, fullPage: true })
      await tfPage.goto('/login')
      await tfPage.locator('input[name=username]').fill(tf.username)
      await tfPage.locator('input[name=password]').fill(tf.password)
      await tfPage.locator('button[type=submit]').click()
      await tfPage.waitForURL((u) => !u.pathname.startsWith('/login'))
      await tfPage.goto('/profile/edit')
      const card = tfPage.locator('[data-testid=two-factor]')
      await card.locator('button.ant-btn-primary').click()
      await card.locator('[data-testid=totp-secret]').waitFor()
      await settle(tfPage)
      await card.screenshot({ path: `test-results/screens/two-factor-setup-${device}-${lang}.png` })
      const secret = (await card.locator('[data-testid=totp-secret]').innerText()).trim()
      await card.locator('input[autocomplete=one-time-code]').fill(totp(secret))
      await card.locator('button[type=submit]').click()
      await card.locator('[data-testid=recovery-codes]').waitFor()
      await settle(tfPage)
      await card.screenshot({ path: `test-results/screens/two-factor-codes-${device}-${lang}.png` })
      await mine.clearCookies()
      await mine.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      await tfPage.goto('/login')
      await tfPage.locator('input[name=username]').fill(tf.username)
      await tfPage.locator('input[name=password]').fill(tf.password)
      await tfPage.locator('button[type=submit]').click()
      await tfPage.locator('input[name=code]').waitFor()
      await settle(tfPage)
      await tfShot('login-code')
      await mine.close()
    })
  }
}

/** A patient, a clinic and a referral in each language, for the documents' screens and printed pages. */
const DOCS: Record<string, { first: string; last: string; clinic: string; address: string; complaint: string; referredTo: string; reason: string }> = {
  en: { first: 'John', last: 'Smith', clinic: 'Riverside Family Clinic', address: '12 River Road, Springfield', complaint: 'Fever and cough for 3 days', referredTo: 'Pulmonology, City Hospital', reason: 'Persistent cough; please assess for pneumonia.' },
  ru: { first: 'Анна', last: 'Иванова', clinic: 'Семейная клиника «Здоровье»', address: 'ул. Ленина, 12, Казань', complaint: 'Температура и кашель 3 дня', referredTo: 'Пульмонолог, городская больница № 2', reason: 'Затяжной кашель; исключить пневмонию.' },
  zh: { first: '小明', last: '王', clinic: '康宁社区诊所', address: '上海市中山路12号', complaint: '发热咳嗽3天', referredTo: '市第一医院呼吸科', reason: '持续咳嗽，请评估是否为肺炎。' },
  vi: { first: 'An', last: 'Nguyễn Văn', clinic: 'Phòng khám Đa khoa An Bình', address: '12 Lê Lợi, Quận 1, TP. Hồ Chí Minh', complaint: 'Sốt và ho 3 ngày', referredTo: 'Khoa Hô hấp, Bệnh viện Chợ Rẫy', reason: 'Ho kéo dài; đề nghị đánh giá viêm phổi.' },
}

const SIGNATURE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 60"><path d="M10 40 C 40 10, 70 50, 100 20 S 160 40, 190 15" stroke="#000" fill="none" stroke-width="3"/></svg>'

for (const [device, viewport] of Object.entries(viewports)) {
  for (const lang of languages) {
    test(`documents ${device} ${lang}`, async ({ page, context, browser }) => {
      test.setTimeout(240_000)
      await page.setViewportSize(viewport)
      await context.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      const shot = (name: string) => page.screenshot({ path: `test-results/screens/${name}-${device}-${lang}.png`, fullPage: true })
      await page.goto('/login')
      await page.locator('input[name=username]').fill('admin')
      await page.locator('input[name=password]').fill(PASSWORD)
      await page.locator('button[type=submit]').click()
      await page.waitForURL((u) => !u.pathname.startsWith('/login'))
      const xsrf = (await context.cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value
      const call = async (method: string, path: string, data?: unknown) => {
        const r = await page.request.fetch(path, { method, data, headers: { 'X-XSRF-TOKEN': xsrf } })
        const text = await r.text()
        if (r.status() >= 400) throw new Error(`${method} ${path}: ${r.status()} ${text}`)
        return text ? JSON.parse(text) : undefined
      }
      const w = DOCS[lang]
      const clinic = await call('GET', '/api/settings/clinic')
      await call('PUT', '/api/settings/clinic', { name: w.clinic, address: w.address, phone: '+84 28 3822 1234', version: clinic.version })
      await page.request.put('/api/profile/signature', { headers: { 'X-XSRF-TOKEN': xsrf }, multipart: { file: { name: 'signature.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SIGNATURE_SVG) } } })
      const me = await call('GET', '/api/get-profile')
      await call('PATCH', '/api/update-profile', { specialisations: ['Family medicine'], licences: [{ number: 'PRC-0012345', issuer: 'MOH', valid_from: '', valid_until: '' }], version: me.version })
      const p = await call('POST', '/api/patients', { first_name: w.first, last_name: w.last, birth_date: device === 'desktop' ? '1985-03-02' : '1986-04-03', sex: 'female', address: w.address, history: { allergy_status: 'none' } })
      const doctors = (await call('GET', '/api/doctors')).data as { id: number; name: string }[]
      const mine = doctors.find((d) => d.name === me.name) ?? doctors[0]
      const slot = Object.keys(viewports).indexOf(device) * 4 + languages.indexOf(lang)
      const startsAt = new Date()
      startsAt.setHours(20, slot * 10 % 60, 0, 0)
      startsAt.setDate(startsAt.getDate() + 1 + Math.floor(slot / 6))
      const a = await call('POST', '/api/appointments', { patient_id: p.id, doctor_id: mine.id, starts_at: startsAt.toISOString(), duration_minutes: 10, type: 'new' })
      await call('POST', `/api/appointments/${a.id}/arrive`, {})
      await call('POST', `/api/appointments/${a.id}/start`, {})
      await call('PUT', `/api/appointments/${a.id}/visit`, { version: 0, chief_complaint: w.complaint, vitals: { temperature: 38.4, heart_rate: 96, bp_systolic: 120, bp_diastolic: 80 },
        diagnoses: [{ code: 'J06.9', primary: true }], orders: [{ code: 'CBC', note: '' }, { code: 'XR-CHEST', note: 'PA' }] })
      await call('POST', `/api/appointments/${a.id}/visit/sign`, { version: 1 })
      const templates = (await call('GET', `/api/document-templates?language=${lang}`)).data as { id: number; kind: string; name: string }[]
      const of = (kind: string) => templates.find((t) => t.kind === kind)!.id
      const today = new Date().toISOString().slice(0, 10)
      const issued = [
        await call('POST', '/api/documents', { template_id: of('medical_certificate'), patient_id: p.id, appointment_id: a.id, fields: { rest_days: '3', rest_from: today } }),
        await call('POST', '/api/documents', { template_id: of('referral'), patient_id: p.id, appointment_id: a.id, fields: { referred_to: w.referredTo, reason: w.reason } }),
        await call('POST', '/api/documents', { template_id: of('lab_request'), patient_id: p.id, appointment_id: a.id, fields: {} }),
        await call('POST', '/api/documents', { template_id: of('visit_summary'), patient_id: p.id, appointment_id: a.id, fields: {} }),
      ] as { id: number; kind: string; code: string }[]

      const view = page.locator('#main > div:not([hidden])')
      await page.goto(`/appointments/form/${a.id}`)
      await view.locator('[data-testid=document-item]').first().waitFor()
      await settle(page)
      await shot('diagnosis-documents')
      await view.getByTestId('documents').getByRole('button').first().click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('combobox').first().click()
      await dialog.getByRole('option').first().click()
      await dialog.locator('input').nth(1).fill('3')
      await page.waitForTimeout(900)
      await settle(page)
      await shot('document-issue')
      await page.keyboard.press('Escape')
      await page.goto('/forms/templates')
      await settle(page)
      await shot('document-templates')
      await page.goto(`/forms/templates/${of('referral')}`)
      await view.getByRole('combobox').last().waitFor()
      await settle(page)
      await shot('document-template-editor')
      for (const d of issued) {
        await page.goto(`/documents/${d.id}/print`)
        await page.getByTestId('document-sheet').waitFor()
        await settle(page)
        await shot(`document-${d.kind}`)
        if (device === 'desktop') {
          await page.emulateMedia({ media: 'print' })
          await page.pdf({ path: `test-results/screens/document-${d.kind}-${lang}.pdf`, preferCSSPageSize: true, printBackground: true })
          await page.emulateMedia({ media: 'screen' })
        }
      }
      const receiver = await browser.newPage({ locale: lang === 'zh' ? 'zh-CN' : lang, viewport: { width: 390, height: 844 } })
      await receiver.goto(`/verify/${issued[0].code}`)
      await receiver.screenshot({ path: `test-results/screens/verify-${device}-${lang}.png`, fullPage: true })
      await receiver.close()
      await call('GET', `/api/remove-signature/${me.id}`)
    })
  }
}

for (const [device, viewport] of Object.entries(viewports)) {
  for (const lang of languages) {
    test(`backups ${device} ${lang}`, async ({ page, context }) => {
      await page.setViewportSize(viewport)
      await context.addCookies([{ name: 'language', value: lang, url: test.info().project.use.baseURL! }])
      await page.goto('/login')
      await page.locator('input[name=username]').fill('admin')
      await page.locator('input[name=password]').fill(PASSWORD)
      await page.locator('button[type=submit]').click()
      await page.waitForURL((u) => !u.pathname.startsWith('/login'))
      await page.goto('/administrator/backups')
      await page.locator('.ant-table-row').first().waitFor()
      await settle(page)
      await page.screenshot({ path: `test-results/screens/backups-${device}-${lang}.png`, fullPage: true })
    })
  }
}
