// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Opened, PortalSession, Released } from './api'
import { PortalPage } from './PortalPage'
import { LANGS, RELEASED_TEXTS, type Lang } from './texts'

const session: PortalSession = { signed_in: true, clinic: 'Sunrise Clinic', records: [{ id: 7, first_name: 'Lan', last_name: 'Trần', guardian: false }], idle_minutes: 20 }
const visits = { upcoming: [], past: [], cancel_hours: 2 }

const potassium = { name: 'Potassium', value: '5.8 mmol/L', unit: 'mmol/L', flag: 'H', flag_text: 'above the usual range', range: '3.5–5.1 mmol/L', corrected: false }
const released: Released = {
  limited: false,
  items: [
    { kind: 'result', id: 11, title: 'Basic metabolic panel', date: '2026-11-20T03:00:00Z', held: false, withdrawn: false, corrected: true, results: [potassium] },
    { kind: 'result', id: 12, title: 'Lipid panel', date: '2026-11-19T03:00:00Z', held: true, withdrawn: false, note: 'Your doctor will discuss this with you.', corrected: false },
    { kind: 'document', id: 21, title: 'Medical certificate', date: '2026-11-20T03:00:00Z', document_kind: 'medical_certificate', held: false, withdrawn: false, corrected: false },
    { kind: 'prescription', id: 31, title: 'Amoxicillin 500 mg capsule', date: '2026-11-20T03:00:00Z', held: false, withdrawn: false, corrected: false },
  ],
}
const hostile = '<img src=x onerror="window.hacked=1">'
const certificate: Opened = {
  ...released.items[2],
  language: 'en',
  content: [
    { type: 'h1', runs: [{ text: 'Medical certificate' }] },
    { type: 'p', runs: [{ text: 'This is to certify that ' }, { text: hostile, bold: true }, { text: '\nwas examined.' }] },
    { type: 'table', rows: [[[{ text: 'Patient' }], [{ text: 'Lan Trần' }]]] },
    { type: 'ul', items: [[{ text: 'J06.9 Acute upper respiratory infection' }]] },
  ],
}
const prescription: Opened = {
  ...released.items[3],
  prescription: {
    number: 31, issued_at: '2026-11-20T03:00:00Z', notes: '', diagnoses: ['J06.9'], prescriber: 'Dr Minh', specialisations: ['Family medicine'], licences: [],
    lines: [{ medicine: 'Amoxicillin 500 mg capsule', dose: '1 capsule', route: 'oral', frequency: '3 times a day', duration: '7 days', quantity: '21', unit: '', refills: 0, instructions: '' }],
  },
}

function serve(answers: Record<string, { status: number; body?: unknown }>) {
  const calls: string[] = []
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`
    calls.push(key)
    const a = answers[key] ?? { status: 404, body: { error: 'Not found.', code: 'portal.not_found' } }
    return Promise.resolve(new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status }))
  })
  return calls
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function open(lang: Lang, list: Released = released, more: Record<string, { status: number; body?: unknown }> = {}) {
  const calls = serve({
    'GET /api/portal/session': { status: 200, body: session },
    'GET /api/portal/records/7/appointments': { status: 200, body: visits },
    'GET /api/portal/records/7/released': { status: 200, body: list },
    'GET /api/portal/records/7/released/result/11': { status: 200, body: { ...released.items[0] } },
    'GET /api/portal/records/7/released/document/21': { status: 200, body: certificate },
    'GET /api/portal/records/7/released/prescription/31': { status: 200, body: prescription },
    ...more,
  })
  window.history.replaceState(null, '', `/portal?lang=${lang}`)
  render(<PortalPage />)
  return calls
}

describe('the portal’s results and documents', () => {
  it.each(LANGS.map((l) => l.code))('names both sections in %s', async (lang) => {
    open(lang)
    const r = RELEASED_TEXTS[lang]
    expect(await screen.findByRole('button', { name: r.results })).toBeTruthy()
    expect(screen.getByRole('button', { name: r.documents })).toBeTruthy()
    expect(Object.keys(RELEASED_TEXTS[lang]).sort()).toEqual(Object.keys(RELEASED_TEXTS.en).sort())
  })

  it('shows a result’s values on asking (recorded as opened), the flag in plain words, the range, a corrected mark; a held one only its note', async () => {
    const r = RELEASED_TEXTS.en
    const calls = open('en')
    fireEvent.click(await screen.findByRole('button', { name: r.results }))
    expect(await screen.findByRole('heading', { name: 'Basic metabolic panel' })).toBeTruthy()
    expect(screen.getByText('Your doctor will discuss this with you.')).toBeTruthy()
    expect(screen.getAllByRole('button', { name: r.showValues })).toHaveLength(1) // the held one has none
    expect(screen.getByText(r.corrected)).toBeTruthy()
    const show = screen.getByRole('button', { name: r.showValues })
    expect(show.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(show)
    const table = await screen.findByRole('table')
    expect(show.getAttribute('aria-expanded')).toBe('true')
    expect(within(table).getByRole('rowheader', { name: 'Potassium' })).toBeTruthy()
    expect(within(table).getByText('5.8 mmol/L')).toBeTruthy()
    expect(within(table).getByText('above the usual range')).toBeTruthy()
    expect(within(table).getByText('3.5–5.1 mmol/L')).toBeTruthy()
    expect(calls).toContain('GET /api/portal/records/7/released/result/11')
  })

  it('shows a withdrawn result and document as a tombstone: the note, nothing to show or open', async () => {
    const note = 'This was withdrawn by the clinic. Your doctor will explain.'
    const list: Released = {
      limited: false,
      items: [
        { kind: 'result', id: 13, title: 'Thyroid panel', date: '2026-11-18T03:00:00Z', held: false, withdrawn: true, note, corrected: false },
        { kind: 'document', id: 22, title: 'Referral letter', date: '2026-11-18T03:00:00Z', document_kind: 'referral', held: false, withdrawn: true, note, corrected: false },
      ],
    }
    const r = RELEASED_TEXTS.en
    open('en', list)
    fireEvent.click(await screen.findByRole('button', { name: r.results }))
    expect(await screen.findByRole('heading', { name: 'Thyroid panel' })).toBeTruthy()
    expect(screen.getByText(note)).toBeTruthy()
    expect(screen.queryByRole('button', { name: r.showValues })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: r.documents }))
    expect(await screen.findByRole('heading', { name: 'Referral letter' })).toBeTruthy()
    expect(screen.getByText(note)).toBeTruthy()
    expect(screen.queryByRole('button', { name: `${r.open}: Referral letter` })).toBeNull()
  })

  it('says under a value that no range judged it, never blank as if normal', async () => {
    const noRange = 'no reference range for the patient’s age and sex'
    const list: Released = { limited: false, items: [{ ...released.items[0], results: [{ ...potassium, flag: '', flag_text: '', range: '', range_note: noRange }] }] }
    const r = RELEASED_TEXTS.en
    open('en', list, { 'GET /api/portal/records/7/released/result/11': { status: 200, body: list.items[0] } })
    fireEvent.click(await screen.findByRole('button', { name: r.results }))
    fireEvent.click(await screen.findByRole('button', { name: r.showValues }))
    const table = await screen.findByRole('table')
    expect(within(table).getByText(noRange)).toBeTruthy()
  })

  it.each(LANGS.map((l) => l.code))('says in %s that a young person’s prescriptions are given in person', async (lang) => {
    const r = RELEASED_TEXTS[lang]
    open(lang, { items: [], limited: true })
    fireEvent.click(await screen.findByRole('button', { name: r.documents }))
    expect(await screen.findByText(r.limitedRx)).toBeTruthy()
    expect(screen.getByText(r.limited)).toBeTruthy()
  })

  it('says when nothing is shown, and that a young person’s view leaves some out', async () => {
    const r = RELEASED_TEXTS.vi
    open('vi', { items: [], limited: true })
    fireEvent.click(await screen.findByRole('button', { name: r.results }))
    expect(await screen.findByText(r.noResults)).toBeTruthy()
    expect(screen.getByText(r.limited)).toBeTruthy()
  })

  it('opens a document as printed, its text as text (never markup), with Print and a hint; back returns focus', async () => {
    const r = RELEASED_TEXTS.en
    const print = vi.fn()
    vi.stubGlobal('print', print)
    open('en')
    fireEvent.click(await screen.findByRole('button', { name: r.documents }))
    const button = await screen.findByRole('button', { name: `${r.open}: Medical certificate` })
    fireEvent.click(button)
    const sheet = await screen.findByRole('article', { name: 'Medical certificate' })
    // Focus moves in an effect after the sheet is drawn: on a busy machine, a moment later.
    await waitFor(() => expect(document.activeElement).toBe(sheet))
    expect(within(sheet).getByRole('heading', { level: 3, name: 'Medical certificate' })).toBeTruthy()
    expect(within(sheet).getByText(hostile).tagName).toBe('STRONG')
    expect(sheet.querySelector('img')).toBeNull()
    expect(sheet.querySelectorAll('br')).toHaveLength(1)
    expect(within(sheet).getByText('J06.9 Acute upper respiratory infection')).toBeTruthy()
    expect(sheet.querySelector('[lang="en"]')).toBeTruthy()
    expect(screen.getByText(r.printHint)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: r.print }))
    expect(print).toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: r.back }))
    const again = await screen.findByRole('button', { name: `${r.open}: Medical certificate` })
    await waitFor(() => expect(document.activeElement).toBe(again))
  })

  it('opens a prescription as printed, in the page’s language', async () => {
    const r = RELEASED_TEXTS.ru
    open('ru')
    fireEvent.click(await screen.findByRole('button', { name: r.documents }))
    fireEvent.click(await screen.findByRole('button', { name: `${r.open}: Amoxicillin 500 mg capsule` }))
    const sheet = await screen.findByRole('article')
    expect(within(sheet).getByRole('heading', { name: r.rxNumber(31) })).toBeTruthy()
    expect(within(sheet).getByText(`1 capsule, oral, 3 times a day, 7 days, ${r.quantity}: 21`)).toBeTruthy()
    expect(within(sheet).getByText('Dr Minh')).toBeTruthy()
    expect(sheet.textContent).toContain('Trần')
  })

  it('shows the server’s refusal when an item is no longer there', async () => {
    const r = RELEASED_TEXTS.zh
    open('zh', released, { 'GET /api/portal/records/7/released/document/21': { status: 404, body: { error: '未找到。', code: 'release.not_found' } } })
    fireEvent.click(await screen.findByRole('button', { name: r.documents }))
    fireEvent.click(await screen.findByRole('button', { name: `${r.open}: Medical certificate` }))
    expect((await screen.findByRole('alert')).textContent).toBe('未找到。')
  })
})
