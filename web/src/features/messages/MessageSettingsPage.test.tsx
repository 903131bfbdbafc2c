// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { MessageSettings } from './api/messages'
import MessageSettingsPage from './MessageSettingsPage'

afterEach(cleanup)

const stored: MessageSettings = { reminders: true, offsets_minutes: [1440, 120], quiet_start: '21:00', quiet_end: '08:00', cancel_hours: 2, email: true, sms: true, language: 'en', version: 3 }

describe('MessageSettingsPage', () => {
  it('shows the clinic\'s rules and saves them at the version read', async () => {
    const view = await renderScreen(<MessageSettingsPage />, {
      me: user(['manage settings']),
      api: { 'GET /settings/patient-messages': stored, 'PUT /settings/patient-messages': ({ body }: { body: unknown }) => ({ ...(body as object), version: 4 }) },
    })
    const quiet = await screen.findByRole('textbox', { name: 'Quiet from' })
    expect((quiet as HTMLInputElement).value).toBe('21:00')
    expect(screen.getByText('1 day before')).toBeTruthy()
    expect(screen.getByText('2 hours before')).toBeTruthy()
    fireEvent.change(quiet, { target: { value: '22:00' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'SMS' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(view.sent.length).toBe(1))
    expect(view.sent[0].body).toMatchObject({ quiet_start: '22:00', sms: false, email: true, offsets_minutes: [1440, 120], version: 3 })
  })

  it('refuses a time that is not HH:MM before sending', async () => {
    const view = await renderScreen(<MessageSettingsPage />, { me: user(['manage settings']), api: { 'GET /settings/patient-messages': stored } })
    fireEvent.change(await screen.findByRole('textbox', { name: 'Quiet until' }), { target: { value: '8 am' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Enter a time as HH:MM, e.g. 21:00.')).toBeTruthy()
    expect(view.sent).toEqual([])
  })
})
