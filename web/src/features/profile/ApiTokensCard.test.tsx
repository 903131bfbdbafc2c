// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Refusal, renderScreen, user } from '../../test/render'
import { ApiTokensCard } from './ApiTokensCard'
import type { ApiToken } from './api/types'

afterEach(cleanup)

const day = 24 * 3600 * 1000
const token = (id: number, over: Partial<ApiToken> = {}): ApiToken => ({
  id, user_id: 7, username: 'test', user_name: 'Test user', name: `Script ${id}`, scopes: '', created_at: '2026-11-01T09:00:00Z', created_by: 7,
  created_by_name: 'Test user', expires_at: new Date(Date.now() + 60 * day).toISOString(), expired: false, expiring_soon: false, last_used_at: null,
  last_used_address: '', revoked_at: null, revoked_reason: '', ...over,
})

const tokens = [
  token(3, { name: 'Lab link', created_by: 1, created_by_name: 'Admin Lan', expiring_soon: true, expires_at: new Date(Date.now() + 5 * day).toISOString() }),
  token(2, { name: 'Old script', revoked_at: '2026-11-20T10:00:00Z', revoked_reason: 'password_changed' }),
]

const api = (twoFactor: boolean, made: (body: unknown) => unknown = () => ({ token: 'emr_pat_new', api_token: token(9) })) => ({
  'GET /profile/api-tokens': { data: tokens },
  'GET /profile/two-factor': { enabled: twoFactor, recovery_codes_left: twoFactor ? 10 : 0, required: false },
  'GET /profile/api-tokens/reach': { data: [{ resource: 'Organization', actions: 'rs' }, { resource: 'Patient', actions: 'crus' }] },
  'POST /profile/api-tokens': ({ body }: { body: unknown }) => made(body),
})

const openForm = async () => {
  fireEvent.click(await screen.findByRole('button', { name: /New token/ }))
  return screen.findByRole('dialog', { name: 'New token' })
}

describe('ApiTokensCard', () => {
  it('says why a token ended, who made one, and which end soon', async () => {
    await renderScreen(<ApiTokensCard userId={7} />, { me: user([]), api: api(false) })
    expect((await screen.findByTestId('ended')).textContent).toMatch(/Ended: the password was changed/)
    expect(screen.getByTestId('made-by').textContent).toBe('Made by Admin Lan')
    expect(screen.getByTestId('expiring-notice').textContent).toMatch(/1 token ends within 14 days: “Lab link”/)
  })

  it('offers only the scopes the account reaches and asks the password again', async () => {
    const view = await renderScreen(<ApiTokensCard userId={7} />, { me: user([]), api: api(false) })
    const dialog = await openForm()
    expect(within(dialog).queryByLabelText('Code from your authenticator app')).toBeNull()
    fireEvent.input(within(dialog).getByLabelText('Name'), { target: { value: 'Nightly sync' } })
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Scopes' }))
    await waitFor(() => expect(screen.getAllByText('Patient: write').length).toBeGreaterThan(0))
    expect(screen.queryByText(/Observation/)).toBeNull()
    fireEvent.click(screen.getAllByText('Patient: read and search').at(-1)!)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy()
    expect(view.sent).toEqual([])
    fireEvent.input(within(dialog).getByLabelText('Your password'), { target: { value: 'my own passphrase' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    await waitFor(() => expect(view.sent.length).toBe(1))
    expect(view.sent[0].body).toEqual({ name: 'Nightly sync', scopes: 'user/Patient.rs', expires_in_days: 90, current_password: 'my own passphrase' })
    expect(await screen.findByTestId('new-token')).toBeTruthy()
  })

  it('asks a code of the second factor, and shows a wrong password under its field', async () => {
    const refuse = () => {
      const body = { error: 'Some fields need your attention.', code: 'validation.failed', errors: { current_password: ['The current password is not right.'] } }
      throw new Refusal(422, body)
    }
    const view = await renderScreen(<ApiTokensCard userId={7} />, { me: user([]), api: api(true, refuse) })
    const dialog = await openForm()
    const code = await within(dialog).findByLabelText('Code from your authenticator app')
    fireEvent.input(within(dialog).getByLabelText('Name'), { target: { value: 'x' } })
    fireEvent.input(within(dialog).getByLabelText('Your password'), { target: { value: 'wrong one' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    await waitFor(() => expect(within(dialog).getAllByText('This field is required.').length).toBeGreaterThan(0))
    expect(view.sent).toEqual([])
    fireEvent.input(code, { target: { value: ' 7k2m-9xq4-hd3a-w8pe ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create token' }))
    expect(await within(dialog).findByText('The current password is not right.')).toBeTruthy()
    expect(view.sent[0].body).toMatchObject({ current_password: 'wrong one', code: '7k2m-9xq4-hd3a-w8pe', scopes: '' })
  })
})
