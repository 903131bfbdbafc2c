// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { Profile } from './api/types'
import SelfProfilePage from './SelfProfilePage'

afterEach(cleanup)

const profile: Profile = {
  id: 7, username: 'test', name: 'Test user', email: 'test@clinic.example', introduction: '', pic: '', roles: ['doctor'],
  specialisations: ['Family medicine'], licences: [{ number: 'PRC-0012345', issuer: 'PRC', valid_from: '2024-01-01', valid_until: '2027-01-01' }],
  has_signature: false, signature_url: '', version: 4,
}

const api = (saved: (body: unknown) => Profile = (b) => ({ ...profile, ...(b as object), version: 5 })) => ({
  'GET /get-profile': profile,
  'GET /profile/two-factor': { enabled: false, recovery_codes_left: 0, required: false },
  'GET /profile/activity': { data: [] },
  'PATCH /update-profile': ({ body }: { body: unknown }) => saved(body),
})

describe('SelfProfilePage', () => {
  it('asks one who signs papers for licences and a signature', async () => {
    await renderScreen(<SelfProfilePage />, { me: user(['write prescription']), api: api() })
    expect(await screen.findByDisplayValue('PRC-0012345')).toBeTruthy()
    expect(screen.getAllByTestId('licence')).toHaveLength(1)
  })

  it('asks nothing of licences of one who signs no paper, and keeps the stored ones when saving', async () => {
    const view = await renderScreen(<SelfProfilePage />, { me: user(['view patient']), api: api() })
    const name = await screen.findByDisplayValue('Test user')
    expect(screen.queryByTestId('licence')).toBeNull()
    fireEvent.input(name, { target: { value: 'Lan Trần' } })
    fireEvent.click(screen.getByRole('button', { name: /save/i }))
    await waitFor(() => expect(view.sent.some((r) => r.path === '/update-profile')).toBe(true))
    const sent = view.sent.find((r) => r.path === '/update-profile')!.body as Profile
    expect(sent.name).toBe('Lan Trần')
    expect(sent.version).toBe(4)
    expect(sent.licences).toEqual(profile.licences)
  })

  it('says a password must be changed before anything else', async () => {
    await renderScreen(<SelfProfilePage />, { me: { ...user([]), must_change_password: true }, api: api() })
    expect(await screen.findByTestId('must-change')).toBeTruthy()
  })
})
