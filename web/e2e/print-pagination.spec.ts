import { expect, test, type Page } from '@playwright/test'
import { api, bookFirstFree, day, doctorId, authenticate, newPatient, unique } from './helpers'
import { pdfPages } from './pdf'

// Printed sheets paginate with the patient's name and number and "page N of M" on every page,
// and never put a signature alone on a page (clinic-day review 2026-11-28, m16). The sheets
// are printed to PDF as the browser prints them, and each page's text is read back.

// A search for the height that just overflows prints a dozen PDFs: under a minute on a quiet
// machine, more than the default 90 s on a busy one (a bound, not a wait).
test.describe.configure({ timeout: 180_000 })

/** Each page's text when the sheet prints with a block of `height` px above its body. */
async function printedWith(page: Page, before: string, height: number) {
  await page.evaluate(
    ({ before, height }) => {
      const sheet = document.querySelector('body > [class*="printRoot"] article')!
      let spacer = sheet.querySelector<HTMLElement>('[data-spacer]')
      if (!spacer) {
        spacer = document.createElement('div')
        spacer.dataset.spacer = ''
        sheet.insertBefore(spacer, sheet.querySelector(before))
      }
      spacer.style.height = `${height}px`
    },
    { before, height },
  )
  return pdfPages(await page.pdf({ preferCSSPageSize: true }))
}

/** The pages at the first height that makes the sheet run onto a second page: where a closing block is most likely left alone. */
async function justOverOnePage(page: Page, before: string) {
  let [low, high] = [0, 1200]
  const plain = await printedWith(page, before, low)
  if (plain.length > 1) return plain // over a page already, as it is
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if ((await printedWith(page, before, mid)).length > 1) high = mid
    else low = mid
  }
  return printedWith(page, before, high)
}

const flat = (s: string) => s.replace(/\s+/g, ' ')

function expectFooters(pages: string[], name: string, mrn: string) {
  pages.forEach((text, i) => expect(flat(text)).toContain(`${name} · Patient no. ${mrn} · Page ${i + 1} of ${pages.length}`))
}

test('an A5 receipt of five items and two payments: numbered pages, and the signature never alone on the second', async ({ page }) => {
  await authenticate(page, 'admin')
  const patient = await newPatient(page, `Print${unique()}`)
  let r = await api(page, 'post', '/api/bills', { patient_id: patient.id })
  expect(r.status()).toBe(201)
  let bill = (await r.json()) as { id: number; version: number; patient: { name: string; mrn: string } }
  for (const [i, item] of ['Consultation', 'Wound dressing', 'Injection', 'Blood count', 'Urine test'].entries()) {
    r = await api(page, 'post', `/api/bills/${bill.id}/lines`, { description: item, quantity: 1, unit_price: 10000 * (i + 1) })
    expect(r.status()).toBe(201)
    bill = await r.json()
  }
  r = await api(page, 'post', `/api/bills/${bill.id}/finalise`, { version: bill.version })
  expect(r.status()).toBe(200)
  for (const [method, amount] of [['card', 100000], ['card', 50000]] as const)
    expect((await api(page, 'post', `/api/bills/${bill.id}/payments`, { method, amount, reference: `slip ${amount}` })).status()).toBe(201)
  const payments = ((await (await api(page, 'get', `/api/bills/${bill.id}`)).json()) as { payments: { id: number }[] }).payments

  await page.goto(`/bills/${bill.id}/print/receipt?payment=${payments[1].id}`)
  await expect(page.getByTestId('receipt-sheet')).toContainText('Urine test')
  const whole = pdfPages(await page.pdf({ preferCSSPageSize: true }))
  expectFooters(whole, bill.patient.name, bill.patient.mrn)

  const pages = await justOverOnePage(page, 'table')
  expect(pages).toHaveLength(2)
  expectFooters(pages, bill.patient.name, bill.patient.mrn)
  // The second page holds the sums and payments with the cashier's signature, not the signature alone.
  expect(flat(pages[1])).toContain('Total')
  expect(flat(pages[1])).toContain('Cashier')
  expect(flat(pages[0])).toContain('Urine test')
})

test('an A4 referral whose second page would hold only the QR code, seal and signature keeps the letter’s last lines with them', async ({ browser }) => {
  const desk = await browser.newPage()
  await authenticate(desk, 'receptionist')
  const doc = await browser.newPage()
  await authenticate(doc, 'doctor')
  const patient = await newPatient(desk, `Referral${unique()}`)
  const appointment = await bookFirstFree(desk, patient.id, await doctorId(desk), day(1), 7)
  expect((await api(desk, 'post', `/api/appointments/${appointment}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appointment}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appointment}/visit`, { version: 0, chief_complaint: 'Chest pain on exertion', diagnoses: [{ code: 'I20.9', primary: true }] })).status()).toBe(200)
  const templates = ((await (await api(doc, 'get', '/api/document-templates?kind=referral&language=en')).json()) as { data: { id: number }[] }).data
  const issued = await api(doc, 'post', '/api/documents', {
    template_id: templates[0].id,
    patient_id: patient.id,
    appointment_id: appointment,
    fields: { referred_to: 'Cardiology clinic', reason: 'Exertional chest pain for three weeks; please assess for stable angina.' },
  })
  expect(issued.status()).toBe(201)
  const chart = (await (await api(doc, 'get', `/api/patients/${patient.id}`)).json()) as { last_name: string; first_name: string; mrn: string }

  await doc.goto(`/documents/${((await issued.json()) as { id: number }).id}/print`)
  await expect(doc.getByTestId('document-sheet')).toContainText('Thank you for seeing this patient.')
  const name = `${chart.first_name} ${chart.last_name}`
  await expect.poll(async () => flat(pdfPages(await doc.pdf({ preferCSSPageSize: true }))[0])).toContain(`${name} · Patient no. ${chart.mrn} · Page 1 of 1`)

  const pages = await justOverOnePage(doc, 'header')
  expect(pages).toHaveLength(2)
  expectFooters(pages, name, chart.mrn)
  // Page 2 carries the letter's last lines with the check and the signature.
  expect(flat(pages[1])).toContain('Thank you for seeing this patient.')
  expect(flat(pages[1])).toContain('SHA-256')
  await desk.close()
  await doc.close()
})

test('a Vietnamese A5 certificate of two diagnoses and five days’ rest prints on one page, signature and seal with its text', async ({ browser }) => {
  const desk = await browser.newPage()
  await authenticate(desk, 'receptionist')
  const doc = await browser.newPage()
  await authenticate(doc, 'doctor')
  const patient = await newPatient(desk, `Certificate${unique()}`)
  const appointment = await bookFirstFree(desk, patient.id, await doctorId(desk), day(1), 7)
  expect((await api(desk, 'post', `/api/appointments/${appointment}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appointment}/start`, {})).status()).toBe(200)
  const diagnoses = [{ code: 'J06.9' }, { code: 'J18.9', primary: true }]
  expect((await api(doc, 'put', `/api/appointments/${appointment}/visit`, { version: 0, chief_complaint: 'Sốt, ho', diagnoses })).status()).toBe(200)
  const templates = ((await (await api(doc, 'get', '/api/document-templates?kind=medical_certificate&language=vi')).json()) as { data: { id: number }[] }).data
  const issued = await api(doc, 'post', '/api/documents', { template_id: templates[0].id, patient_id: patient.id, appointment_id: appointment, fields: { rest_days: '5', rest_from: day(2) } })
  expect(issued.status()).toBe(201)
  await doc.goto(`/documents/${((await issued.json()) as { id: number }).id}/print`)
  await expect(doc.getByTestId('state-header').first()).toBeVisible()
  await expect.poll(async () => pdfPages(await doc.pdf({ preferCSSPageSize: true })).length).toBe(1)
  // The check and the seal and signature share one line, so they take one line's height: on A5
  // they wrapped onto two and pushed a certificate this short onto a second sheet.
  const sheet = doc.getByTestId('document-sheet').first() // drawn on screen at the paper's size, as it prints
  const check = await sheet.locator('svg').first().boundingBox()
  const signed = await sheet.getByTestId('seal-place').boundingBox()
  expect(check && signed && signed.y < check.y + check.height && check.y < signed.y + signed.height).toBe(true)
  const [only] = pdfPages(await doc.pdf({ preferCSSPageSize: true }))
  // The primary diagnosis first; the national header, the text, the check and the signature on the one page.
  expect(flat(only).indexOf('J18.9')).toBeLessThan(flat(only).indexOf('J06.9'))
  expect(flat(only)).toContain('CỘNG HÒA')
  expect(flat(only)).toContain('SHA-256')
  await desk.close()
  await doc.close()
})

// An A6 immunisation card prints on A6 (CSS names no A6 page: given as 105 × 148 mm, it was
// printed on Letter), a child's dozen doses over pages that each carry the running footer.
test('an A6 immunisation card of twelve doses prints on A6 sheets, each with the child’s name and page N of M', async ({ browser }) => {
  const desk = await browser.newPage()
  await authenticate(desk, 'receptionist')
  const patient = await newPatient(desk, `Card${unique()}`)
  const nurse = await browser.newPage()
  await authenticate(nurse, 'nurse')
  const doses = ['bcg', 'hepb_paed', 'dtwp_hepb_hib', 'bopv', 'dtwp_hepb_hib', 'bopv', 'dtwp_hepb_hib', 'bopv', 'ipv', 'measles', 'je_live', 'mr']
  for (const [i, vaccine] of doses.entries()) {
    const r = await api(nurse, 'post', `/api/patients/${patient.id}/immunisations`, { kind: 'elsewhere', vaccine, antigen: '', occurred_on: day(-400 + i * 30), lot: `L${i}`, expiry: '', site: '', route: '', performer: '', source: 'card', place: 'Trạm Y tế phường Bến Nghé', reason: '', until_on: '', note: '', screening: { pregnant: null, immunosuppressed: null }, override_reason: '' })
    expect(r.status(), await r.text()).toBe(201)
  }
  const issued = await api(nurse, 'post', `/api/patients/${patient.id}/immunisation-card`, { paper: 'a6-portrait', language: 'vi' })
  expect(issued.status()).toBe(201)
  await nurse.goto(`/documents/${((await issued.json()) as { id: number }).id}/print`)
  await expect(nurse.getByTestId('document-sheet').first()).toBeVisible()
  const pdf = await nurse.pdf({ preferCSSPageSize: true })
  // 105 × 148 mm is 297.6 × 419.5 pt.
  const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'))
  expect(box && [Math.round(Number(box[1])), Math.round(Number(box[2]))]).toEqual([298, 420])
  const pages = pdfPages(pdf)
  expect(pages.length).toBeGreaterThan(1)
  pages.forEach((p, i) => expect(flat(p)).toContain(`Trang ${i + 1}/${pages.length}`))
  expect(flat(pages.join('\n'))).toContain('L11')
  await desk.close()
  await nurse.close()
})
