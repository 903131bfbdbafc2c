// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BookPage, type Options } from './BookPage'
import { TEXTS } from './texts'

const options: Options = {
  enabled: true, clinic: 'Sunrise Clinic', doctors: [{ id: 7, name: 'Dr Lan', specialty: 'Family medicine', offers: [{ type: 'new', slot_minutes: 30 }] }],
  visit_types: ['new'], channels: ['email', 'sms'], ahead_days: 30, today: '2026-12-06', time_zone: 'Asia/Ho_Chi_Minh',
}
const slot = { doctor_id: 7, starts_at: '2026-12-07T02:00:00Z', duration_minutes: 30, day: '2026-12-07', time: '09:00' }

function serve(answers: Record<string, { status: number; body?: unknown }[]>) {
  const calls: { key: string; body?: string; lang?: string }[] = []
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`
    calls.push({ key, body: init?.body as string | undefined, lang: (init?.headers as Record<string, string> | undefined)?.['Accept-Language'] })
    const a = answers[key]?.shift() ?? { status: 404 }
    return Promise.resolve(new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status }))
  })
  return calls
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('the booking page', () => {
  it('books step by step, with errors tied to their fields and the focus on each step', async () => {
    window.history.replaceState(null, '', '/book?lang=vi')
    const t = TEXTS.vi
    const calls = serve({
      'GET /api/book/options': [{ status: 200, body: options }],
      'GET /api/book/slots': [{ status: 200, body: { data: [slot] } }],
      'POST /api/book/holds': [
        { status: 422, body: { error: 'x', code: 'validation.failed', errors: { birth_date: ['Ngày sinh không thể ở tương lai.'] } } },
        { status: 201, body: { id: 5, expires_at: '2026-12-06T10:10:00Z', channel: 'email' } },
      ],
      'POST /api/book/holds/5/confirm': [
        { status: 422, body: { error: 'Mã không đúng. Còn 4 lần thử.', code: 'reminder.code_wrong' } },
        { status: 200, body: { status: 'requested', starts_at: slot.starts_at, doctor_name: 'Dr Lan' } },
      ],
    })
    render(<BookPage />)
    expect(await screen.findByRole('heading', { name: t.doctorStep })).toBeTruthy()
    await waitFor(() => expect(document.documentElement.lang).toBe('vi')) // set by an effect after that render
    fireEvent.click(screen.getByRole('radio', { name: /Dr Lan/ }))
    fireEvent.click(screen.getByRole('button', { name: t.next }))
    const dayHeading = await screen.findByRole('heading', { name: t.dayStep })
    await waitFor(() => expect(document.activeElement).toBe(dayHeading))
    fireEvent.click(screen.getByRole('button', { name: /7/ }))
    fireEvent.click(await screen.findByRole('button', { name: '09:00' }))
    await screen.findByRole('heading', { name: t.detailsStep })
    fireEvent.click(screen.getByRole('button', { name: t.sendCode }))
    expect(screen.getByLabelText(t.firstName).getAttribute('aria-invalid')).toBe('true')
    fireEvent.input(screen.getByLabelText(t.firstName), { target: { value: 'Lan' } })
    fireEvent.input(screen.getByLabelText(t.lastName), { target: { value: 'Nguyen' } })
    fireEvent.input(screen.getByLabelText(t.birthDate), { target: { value: '2030-01-01' } })
    fireEvent.input(screen.getByLabelText(t.emailAddress), { target: { value: 'lan@example.test' } })
    fireEvent.click(screen.getByRole('button', { name: t.sendCode }))
    const birth = screen.getByLabelText(t.birthDate)
    await waitFor(() => expect(birth.getAttribute('aria-invalid')).toBe('true'))
    const described = birth.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent)
    expect(described).toContain('Ngày sinh không thể ở tương lai.')
    fireEvent.input(birth, { target: { value: '1990-04-05' } })
    fireEvent.click(screen.getByRole('button', { name: t.sendCode }))
    await screen.findByRole('heading', { name: t.codeStep })
    const code = screen.getByLabelText(t.code)
    fireEvent.input(code, { target: { value: '111 111' } })
    fireEvent.click(screen.getByRole('button', { name: t.confirmCode }))
    await screen.findByText('Mã không đúng. Còn 4 lần thử.')
    fireEvent.input(code, { target: { value: '123456' } })
    fireEvent.click(screen.getByRole('button', { name: t.confirmCode }))
    expect(await screen.findByText(t.requested)).toBeTruthy()
    const hold = calls.filter((c) => c.key === 'POST /api/book/holds')[1]!
    expect(JSON.parse(hold.body!)).toMatchObject({ doctor_id: 7, type: 'new', starts_at: slot.starts_at, first_name: 'Lan', channel: 'email', language: 'vi' })
    expect(calls.every((c) => c.lang === 'vi')).toBe(true)
  })

  it('says when online booking is closed', async () => {
    window.history.replaceState(null, '', '/book?lang=en')
    serve({ 'GET /api/book/options': [{ status: 200, body: { ...options, enabled: false } }] })
    render(<BookPage />)
    expect(await screen.findByText(TEXTS.en.closed)).toBeTruthy()
  })
})
