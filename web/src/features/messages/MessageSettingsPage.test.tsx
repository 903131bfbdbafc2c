// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { MessageSettings } from './api/messages'
import MessageSettingsPage, { ownCallingCode } from './MessageSettingsPage'

afterEach(cleanup)

const stored: MessageSettings = { reminders: true, offsets_minutes: [1440, 120], quiet_start: '21:00', quiet_end: '08:00', cancel_hours: 2, email: true, sms: true, language: 'en', sms_code_countries: [], sms_codes_per_hour: 30, sms_codes_per_day: 200, version: 3 }

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
    fireEvent.input(quiet, { target: { value: '22:00' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'SMS' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(view.sent.length).toBe(1))
    expect(view.sent[0].body).toMatchObject({ quiet_start: '22:00', sms: false, email: true, offsets_minutes: [1440, 120], version: 3 })
  })

  it('refuses a time that is not HH:MM before sending', async () => {
    const view = await renderScreen(<MessageSettingsPage />, { me: user(['manage settings']), api: { 'GET /settings/patient-messages': stored } })
    fireEvent.input(await screen.findByRole('textbox', { name: 'Quiet until' }), { target: { value: '8 am' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Enter a time as HH:MM, e.g. 21:00.')).toBeTruthy()
    expect(view.sent).toEqual([])
  })

  it('names the clinic\'s own country and saves the other countries and the caps on codes by SMS', async () => {
    const view = await renderScreen(<MessageSettingsPage />, {
      me: user(['manage settings']),
      api: {
        'GET /settings/patient-messages': { ...stored, sms_code_countries: ['7'] },
        'GET /settings/clinic': { name: 'Sunrise', phone: '+84 28 3822 1234', version: 1 },
        'PUT /settings/patient-messages': ({ body }: { body: unknown }) => ({ ...(body as object), version: 4 }),
      },
    })
    expect(await screen.findByText("The clinic's own country, from its phone number: +84.")).toBeTruthy()
    fireEvent.input(screen.getByRole('spinbutton', { name: 'Codes by SMS per hour, at most' }), { target: { value: '10' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(view.sent.length).toBe(1))
    expect(view.sent[0].body).toMatchObject({ sms_code_countries: ['7'], sms_codes_per_hour: 10, sms_codes_per_day: 200, version: 3 })
  })

  it('reads the clinic\'s calling code as the server does', () => {
    expect(ownCallingCode('+84 28 3822 1234')).toBe('84')
    expect(ownCallingCode('0044 20 7946 0000')).toBe('44')
    expect(ownCallingCode('+7 495 123-45-67')).toBe('7')
    expect(ownCallingCode('+380 44 123 4567')).toBe('380')
    expect(ownCallingCode('028 3822 1234')).toBe('')
    expect(ownCallingCode(undefined)).toBe('')
  })
})
