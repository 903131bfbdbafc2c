// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PHONE } from '../../lib/media'
import { renderScreen, user } from '../../test/render'
import { SmartAppsCard } from './SmartAppsCard'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** The window as a phone's: the phone query matches, every other does not. */
const onPhone = () => {
  const real = window.matchMedia
  vi.spyOn(window, 'matchMedia').mockImplementation((q: string) => ({ ...real(q), matches: q === PHONE }))
}

const app = (id: number, name: string, revoked: boolean) => ({
  id,
  client_id: `emr-app-${id}`,
  name,
  redirect_uris: ['https://growth.example/callback'],
  launch_url: 'https://growth.example/launch',
  scopes: 'patient/*.rs',
  created_at: '2026-11-28T10:00:00Z',
  revoked_at: revoked ? '2026-11-28T11:00:00Z' : null,
})

const open = () =>
  renderScreen(<SmartAppsCard fhirBase="https://emr.example.org/fhir/R4" />, {
    me: user(['manage user']),
    api: {
      'GET /smart-apps': { data: [app(2, 'Growth chart', false), app(1, 'Old calculator', true)] },
      'DELETE /smart-apps/2': app(2, 'Growth chart', true),
      'POST /smart-apps': app(3, 'Risk', false),
    },
  })

describe('SmartAppsCard (the shared credential list)', () => {
  it('offers revoking a live app alone, and revokes it only once confirmed', async () => {
    const view = await open()
    const revoke = await screen.findByRole('button', { name: /Growth chart/ }, { timeout: 5000 })
    expect(screen.queryAllByRole('button', { name: /Old calculator/ })).toHaveLength(0)
    fireEvent.click(revoke)
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 })
    expect(dialog.textContent).toContain('Revoke Growth chart?')
    expect(view.sent).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }))
    await waitFor(() => expect(view.sent).toEqual([{ method: 'DELETE', path: '/smart-apps/2', body: undefined }]), { timeout: 5000 })
    expect(await screen.findByText('The app is revoked', {}, { timeout: 5000 })).toBeTruthy()
  })

  it('registers an app from the form, one redirect address a line', async () => {
    const view = await open()
    fireEvent.click(await screen.findByRole('button', { name: 'Register an app' }, { timeout: 5000 }))
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 })
    fireEvent.input(within(dialog).getByLabelText('Name'), { target: { value: 'Risk' } })
    fireEvent.input(within(dialog).getByLabelText('Launch address'), { target: { value: 'https://risk.example/launch' } })
    fireEvent.input(within(dialog).getByLabelText('Redirect addresses'), { target: { value: 'https://risk.example/a\nhttps://risk.example/b' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Register' }))
    await waitFor(() =>
      expect(view.sent).toEqual([
        { method: 'POST', path: '/smart-apps', body: { name: 'Risk', launch_url: 'https://risk.example/launch', redirect_uris: ['https://risk.example/a', 'https://risk.example/b'], scopes: 'patient/*.rs' } },
      ]),
    )
    expect(await screen.findByText('Registered: client_id emr-app-3')).toBeTruthy()
  })

  it('shows a phone one card per app, headings over values, and no table to scroll sideways', async () => {
    onPhone()
    await open()
    const list = await screen.findByRole('list', { name: 'SMART apps' }, { timeout: 5000 })
    const cards = within(list).getAllByRole('listitem')
    expect(cards).toHaveLength(2)
    expect(screen.queryByRole('table')).toBeNull()
    const growth = cards[0]
    expect(growth.textContent).toContain('Growth chart')
    expect(growth.textContent).toContain('emr-app-2')
    expect(within(growth).getAllByRole('term').map((t) => t.textContent)).toEqual(['Addresses', 'Scopes', 'State'])
    expect(within(growth).getAllByRole('definition')[0].textContent).toContain('https://growth.example/callback')
    expect(within(growth).getByRole('button', { name: /Growth chart/ })).toBeTruthy()
    expect(within(cards[1]).queryByRole('button', { name: /Revoke/ })).toBeNull() // revoked: nothing to revoke
  })

  it('keeps the table on a wide screen', async () => {
    await open()
    expect(await screen.findByRole('table', {}, { timeout: 5000 })).toBeTruthy()
    expect(screen.queryByRole('list', { name: 'SMART apps' })).toBeNull()
  })
})
