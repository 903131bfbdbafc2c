// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LinkPage, type LinkView } from './LinkPage'
import { LANGS, TEXTS } from './texts'

const ok: LinkView = {
  state: 'ok', purpose: 'appointment', used_for: '', language: 'en', clinic: 'Sunrise Clinic', date: '2026-12-03', time: '09:30',
  status: 'booked', confirmed: false, can_cancel: true, cancel_hours: 2,
}

/** Answers the page's calls as the server would, recording them. */
function serve(answers: Record<string, { status: number; body?: unknown }>) {
  const calls: string[] = []
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`
    calls.push(key)
    const a = answers[key] ?? { status: 404 }
    return Promise.resolve(new Response(a.body === undefined ? null : JSON.stringify(a.body), { status: a.status }))
  })
  return calls
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('the page a message links to', () => {
  it.each(LANGS.map((l) => l.code))('speaks the patient’s language (%s) and confirms once', async (lang) => {
    const t = TEXTS[lang]
    const calls = serve({
      'GET /api/m/tok': { status: 200, body: { ...ok, language: lang } },
      'POST /api/m/tok/confirm': { status: 200, body: { ...ok, language: lang, state: 'used', used_for: 'confirm' } },
    })
    render(<LinkPage token="tok" />)
    expect(await screen.findByRole('heading', { name: t.title })).toBeTruthy()
    // The page's language is set by an effect after the render that shows the heading.
    await waitFor(() => expect(document.documentElement.lang).toBe(lang))
    expect(screen.getByText('Sunrise Clinic')).toBeTruthy()
    expect(screen.getByText('09:30')).toBeTruthy()
    expect(screen.getByRole('button', { name: t.cancel })).toBeTruthy()
    expect(screen.getByRole('button', { name: t.optOut })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: t.confirm }))
    expect(await screen.findByText(t.confirmed)).toBeTruthy()
    expect(screen.queryByRole('button', { name: t.confirm })).toBeNull()
    expect(calls).toEqual(['GET /api/m/tok', 'POST /api/m/tok/confirm'])
  })

  it('lets the patient switch language', async () => {
    serve({ 'GET /api/m/tok': { status: 200, body: { ...ok, language: 'ru' } } })
    render(<LinkPage token="tok" />)
    await screen.findByRole('heading', { name: TEXTS.ru.title })
    fireEvent.change(screen.getByRole('combobox', { name: TEXTS.ru.language }), { target: { value: 'vi' } })
    expect(await screen.findByRole('heading', { name: TEXTS.vi.title })).toBeTruthy()
    expect(screen.getByRole('button', { name: TEXTS.vi.confirm })).toBeTruthy()
  })

  it('asks before cancelling, and says when it is too late to cancel here', async () => {
    const calls = serve({
      'GET /api/m/a': { status: 200, body: ok },
      'POST /api/m/a/cancel': { status: 200, body: { ...ok, state: 'used', used_for: 'cancel', status: 'cancelled' } },
      'GET /api/m/late': { status: 200, body: { ...ok, can_cancel: false, cancel_hours: 24 } },
    })
    render(<LinkPage token="a" />)
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.en.cancel }))
    expect(calls).toEqual(['GET /api/m/a'])
    fireEvent.click(screen.getByRole('button', { name: TEXTS.en.cancelYes }))
    expect(await screen.findByText(TEXTS.en.cancelled)).toBeTruthy()
    cleanup()
    render(<LinkPage token="late" />)
    expect(await screen.findByText(TEXTS.en.tooLate(24))).toBeTruthy()
    expect(screen.queryByRole('button', { name: TEXTS.en.cancel })).toBeNull()
  })

  it.each([
    ['used', TEXTS.en.used],
    ['expired', TEXTS.en.expired],
    ['invalid', TEXTS.en.invalid],
  ] as const)('a %s link says so and offers nothing', async (state, text) => {
    serve({ 'GET /api/m/x': { status: 200, body: { ...ok, state, clinic: '', date: '', time: '' } } })
    render(<LinkPage token="x" />)
    expect(await screen.findByText(text)).toBeTruthy()
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('a link refused on the way (used meanwhile) says it did not work and shows what holds now', async () => {
    serve({
      'GET /api/m/r': { status: 200, body: ok },
      'POST /api/m/r/confirm': { status: 409, body: { error: 'used', code: 'reminder.link_invalid' } },
    })
    render(<LinkPage token="r" />)
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.en.confirm }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(TEXTS.en.failed))
  })

  it('an opt-out link offers only opting out', async () => {
    serve({
      'GET /api/m/o': { status: 200, body: { ...ok, purpose: 'optout', clinic: '', date: '', time: '' } },
      'POST /api/m/o/optout': { status: 200, body: { ...ok, purpose: 'optout', state: 'used', used_for: 'optout' } },
    })
    render(<LinkPage token="o" />)
    fireEvent.click(await screen.findByRole('button', { name: TEXTS.en.optOut }))
    expect(await screen.findByText(TEXTS.en.optedOut)).toBeTruthy()
  })
})
