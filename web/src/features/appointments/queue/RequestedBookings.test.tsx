// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { renderScreen, user } from '../../../test/render'
import type { BookingRequest } from '../api/bookingRequests'
import { RequestedBookings } from './RequestedBookings'

afterEach(cleanup)

const request = (id: number, last: string, matches: BookingRequest['matches'] = []): BookingRequest =>
  ({
    id, first_name: 'Lan', last_name: last, birth_date: '1990-05-06', address: 'lan@example.com', channel: 'email', language: 'vi', doctor_id: 3, doctor_name: 'Dr Lee', visit_type: 'new',
    starts_at: '2026-11-25T09:30:00', duration_minutes: 15, status: 'requested', version: 2, matches, appointment_id: null, match_id: null, decline_reason: '', created_at: '2026-11-24',
  }) as BookingRequest

const show = (requests: BookingRequest[]) =>
  renderScreen(
    <RequestedBookings date="2026-11-25" />,
    {
      me: user(['manage appointment']),
      api: {
        'GET /booking-requests': { data: requests },
        'POST /booking-requests/1/accept': request(1, 'Võ'),
        'POST /booking-requests/1/decline': request(1, 'Võ'),
      },
    },
  )

const section = () => screen.getByRole('region', { name: '1 online booking request' })

describe('RequestedBookings', () => {
  it('lists the day’s requests with their tags and actions', async () => {
    const { container } = await show([request(1, 'Võ')])
    await waitFor(() => expect(section()).toBeTruthy())
    expect(within(section()).getByText('Requested online')).toBeTruthy()
    expect(within(section()).getByText('New patient')).toBeTruthy()
    expect(within(section()).getByRole('button', { name: 'Accept: Lan Võ' })).toBeTruthy()
    expect(within(section()).getByRole('button', { name: 'Decline: Lan Võ' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('accepts for a new patient only with the required details, sent as registered', async () => {
    const { sent, container } = await show([request(1, 'Võ')])
    await waitFor(() => expect(section()).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Accept: Lan Võ' }))
    const dialog = screen.getByRole('dialog', { name: 'Accept the booking of Lan Võ' })
    expect((within(dialog).getByRole('radio', { name: 'Register a new patient from the request' }) as HTMLInputElement).checked).toBe(true)
    expect((within(dialog).getByLabelText(/Last name/) as HTMLInputElement).value).toBe('Võ')
    expect((within(dialog).getByLabelText(/E-mail/) as HTMLInputElement).value).toBe('lan@example.com')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }))
    expect(within(dialog).getByText('Choose the sex.')).toBeTruthy()
    expect(within(dialog).getByLabelText(/Sex/).getAttribute('aria-invalid')).toBe('true')
    expect(sent).toEqual([])
    expect(await axeViolations(container)).toEqual([])
    fireEvent.change(within(dialog).getByLabelText(/Sex/), { target: { value: 'female' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({ path: '/booking-requests/1/accept', body: { version: 2, register: { last_name: 'Võ', first_name: 'Lan', sex: 'female', email: 'lan@example.com', message_language: 'vi' } } })
    await waitFor(() => expect(screen.getByText('The appointment is booked.')).toBeTruthy())
  })

  it('accepts for a matched patient chosen with the arrow keys', async () => {
    const m = (id: number, sure: boolean) => ({ id, mrn: `M${id}`, first_name: 'Lan', middle_name: '', last_name: 'Võ', sex: 'female', birth_date: '1990-05-06', phone: '', archived: false, has_photo: false, sure }) as BookingRequest['matches'][number]
    const { sent } = await show([request(1, 'Võ', [m(8, true), m(9, false)])])
    await waitFor(() => expect(section()).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Accept: Lan Võ' }))
    const dialog = screen.getByRole('dialog')
    const radios = within(dialog).getAllByRole('radio') as HTMLInputElement[]
    expect(radios.map((r) => r.checked)).toEqual([true, false, false])
    fireEvent.keyDown(radios[0]!, { key: 'ArrowDown' })
    expect(radios.map((r) => r.checked)).toEqual([false, true, false])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Accept' }))
    await waitFor(() => expect(sent[0]).toMatchObject({ body: { patient_id: 9, version: 2 } }))
  })

  it('declines only with a reason', async () => {
    const { sent } = await show([request(1, 'Võ')])
    await waitFor(() => expect(section()).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Decline: Lan Võ' }))
    const dialog = screen.getByRole('dialog', { name: 'Decline the booking of Lan Võ' })
    const ok = within(dialog).getByRole('button', { name: 'Decline' }) as HTMLButtonElement
    expect(ok.disabled).toBe(true)
    fireEvent.input(within(dialog).getByLabelText('Reason (for the clinic)'), { target: { value: 'Doctor away' } })
    fireEvent.click(ok)
    await waitFor(() => expect(sent[0]).toMatchObject({ path: '/booking-requests/1/decline', body: { reason: 'Doctor away' } }))
    await waitFor(() => expect(screen.getByText('The request is declined.')).toBeTruthy())
  })
})
