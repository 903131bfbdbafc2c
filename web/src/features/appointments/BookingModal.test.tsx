// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import dayjs from 'dayjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import type { Appointment } from './api/types'
import { BookingModal } from './BookingModal'
import { soonestSlot } from './soonestSlot'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** The doctor field once its list has arrived, and the doctor it shows chosen ('' for none). */
const doctorChosen = async () => {
  const dialog = await screen.findByRole('dialog')
  const field = () => dialog.querySelector<HTMLSelectElement>('select[aria-required]')
  await waitFor(() => expect(field()?.getAttribute('aria-busy')).toBeNull())
  await waitFor(() => expect(field()?.options.length).toBeGreaterThan(0))
  return field()!.selectedOptions[0]?.textContent ?? ''
}

const empty = { data: [], meta: { total: 0, page: 1, per_page: 200 } }
const patient = { id: 7, mrn: 'P-7', first_name: 'Lan', last_name: 'Pham', birth_date: '1990-04-05' }

// Clinic-day review, m2: a clinic with one doctor books with that doctor; with several, the
// receptionist chooses (the field starts empty).
describe('BookingModal', () => {
  it('picks the only doctor', async () => {
    await renderScreen(<BookingModal open onClose={() => {}} date="2026-12-01" />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] }, 'GET /appointments': empty },
    })
    await waitFor(async () => expect(await doctorChosen()).toBe('Dr Binh'))
  })
  it('leaves the choice to the desk when there are several', async () => {
    await renderScreen(<BookingModal open onClose={() => {}} date="2026-12-01" />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }, { id: 4, name: 'Dr Chi' }] } },
    })
    expect(await doctorChosen()).toBe('')
  })

  it('proposes the doctor’s first free time, not one another appointment holds (the clinic manager’s run, 2026-11-29)', async () => {
    // Mid-morning: the held time and the one after it fall on the same day at any hour the
    // suite runs (it failed a run begun at 23:40, whose next free time was the next day's).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 10, 29, 10, 2))
    const tomorrow = dayjs().add(1, 'day').format('YYYY-MM-DD')
    const soonest = soonestSlot(dayjs())
    const held = dayjs(`${tomorrow}T${soonest.format('HH:mm')}:00`)
    const view = await renderScreen(<BookingModal open onClose={() => {}} date={tomorrow} />, {
      me: user(['manage appointment']),
      api: {
        'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] },
        // The doctor's day, asked for by day and doctor.
        'GET /appointments': ({ params }: { params: Record<string, unknown> }) =>
          params.date === tomorrow && params.doctor_id === 3
            ? { data: [{ id: 1, starts_at: held.toISOString(), duration_minutes: 20, status: 'booked' }], meta: { total: 1, page: 1, per_page: 200 } }
            : empty,
      },
    })
    const time = await screen.findByRole<HTMLInputElement>('combobox', { name: 'Time' })
    await waitFor(() => expect([time.value, view.unanswered]).toEqual([held.add(20, 'minute').format('HH:mm'), []]))
  })

  it('asks for the required fields, under each, and sends nothing; the patient field takes focus', async () => {
    const view = await renderScreen(<BookingModal open onClose={() => {}} date="2026-12-01" />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }, { id: 4, name: 'Dr Chi' }] } },
    })
    const dialog = await screen.findByRole('dialog', { name: 'Book an appointment' })
    // The dialog's first field has focus as it opens.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Patient' })))
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    await waitFor(() => expect(dialog.querySelectorAll('[aria-invalid="true"]').length).toBe(2))
    expect(screen.getAllByText('This field is required.')).toHaveLength(2)
    expect(view.sent).toEqual([])
    expect(await axeViolations(dialog)).toEqual([])
  })

  it('sends the day and time chosen, to the minute in the clinic’s zone, and says the queue number', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 10, 29, 8, 0))
    const onClose = vi.fn()
    const view = await renderScreen(<BookingModal open onClose={onClose} date="2026-12-03" patientId={7} doctorId={3} />, {
      me: user(['manage appointment']),
      api: {
        'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }, { id: 4, name: 'Dr Chi' }] },
        'GET /patients/7': patient,
        'GET /appointments': empty,
        'POST /appointments': { id: 9, queue_number: 4 },
      },
    })
    const time = await screen.findByLabelText<HTMLInputElement>('Time')
    await waitFor(() => expect(time.value).not.toBe(''))
    // Typed as the desk types it, taken with Enter: the first time that begins so.
    fireEvent.input(time, { target: { value: '14:3' } })
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['14:30', '14:35'])
    fireEvent.keyDown(time, { key: 'ArrowDown' })
    fireEvent.keyDown(time, { key: 'Enter' })
    expect(time.value).toBe('14:35')
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '30' } })
    fireEvent.click(screen.getByRole('radio', { name: 'Follow-up' }))
    fireEvent.input(screen.getByLabelText('Reason'), { target: { value: 'Cough' } })
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(view.sent).toEqual([
      {
        method: 'POST',
        path: '/appointments',
        body: { patient_id: 7, doctor_id: 3, starts_at: dayjs('2026-12-03T14:35:00').format(), duration_minutes: 30, type: 'follow-up', reason: 'Cough', remarks: '' },
      },
    ])
    // The exact instant: 14:35 local on the 3rd, never the day before nor another minute.
    expect(new Date((view.sent[0]!.body as { starts_at: string }).starts_at).getTime()).toBe(new Date(2026, 11, 3, 14, 35).getTime())
    expect(await screen.findByText('Booked: number 4 in the queue')).toBeTruthy()
  })

  // The booking review of 2026-11-30: a time typed and left (Tab, or a click on Book) is the
  // time booked, on the five-minute steps or not, however the desk types it; a text that is no
  // time is refused with a message, never replaced by the time proposed before.
  it.each([
    ['10:30', '10:30'],
    ['1030', '10:30'],
    ['930', '09:30'],
    ['9.30', '09:30'],
    ['9h07', '09:07'],
    ['09:07', '09:07'],
  ])('books %s typed and left as %s', async (typed, booked) => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 10, 29, 8, 0))
    const onClose = vi.fn()
    const view = await renderScreen(<BookingModal open onClose={onClose} date="2026-12-03" patientId={7} doctorId={3} />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] }, 'GET /patients/7': patient, 'GET /appointments': empty, 'POST /appointments': { id: 9, queue_number: 4 } },
    })
    const time = await screen.findByLabelText<HTMLInputElement>('Time')
    await waitFor(() => expect(time.value).not.toBe(''))
    expect(time.getAttribute('aria-required')).toBe('true')
    fireEvent.input(time, { target: { value: typed } })
    fireEvent.blur(time)
    await waitFor(() => expect(time.value).toBe(booked))
    // A length chosen after the time leaves the time typed alone.
    fireEvent.change(screen.getByLabelText('Duration'), { target: { value: '30' } })
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const [h, m] = booked.split(':').map(Number)
    expect(new Date((view.sent[0]!.body as { starts_at: string }).starts_at).getTime()).toBe(new Date(2026, 11, 3, h, m).getTime())
  })

  it('refuses a text that is no time, keeping it, and sends nothing; Arrow Down on the closed list keeps the time held', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 10, 29, 8, 0))
    const view = await renderScreen(<BookingModal open onClose={() => {}} date="2026-12-03" patientId={7} doctorId={3} />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] }, 'GET /patients/7': patient, 'GET /appointments': empty, 'POST /appointments': { id: 9, queue_number: 4 } },
    })
    const time = await screen.findByLabelText<HTMLInputElement>('Time')
    await waitFor(() => expect(time.value).not.toBe(''))
    const held = time.value
    fireEvent.keyDown(time, { key: 'ArrowDown' })
    fireEvent.keyDown(time, { key: 'Enter' })
    expect(time.value).toBe(held)
    fireEvent.input(time, { target: { value: '25:00' } })
    fireEvent.blur(time)
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    expect(await screen.findByText('Enter the time as HH:MM, e.g. 09:30.')).toBeTruthy()
    expect(time.value).toBe('25:00')
    expect(view.sent).toEqual([])
  })

  it('shows the server’s field messages under their fields (the start under the date), and a conflict above the form', async () => {
    let calls = 0
    await renderScreen(<BookingModal open onClose={() => {}} date="2099-12-03" patientId={7} doctorId={3} />, {
      me: user(['manage appointment']),
      api: {
        'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] },
        'GET /patients/7': patient,
        'GET /appointments': empty,
        'POST /appointments': () => {
          calls++
          if (calls === 1) throw new Refusal(422, { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: { starts_at: ['Outside the doctor’s hours.'] } })
          throw new Refusal(409, { error: 'Dr Binh already has an appointment from 10:00 to 10:15.', code: 'appointment.conflict' })
        },
      },
    })
    await screen.findByRole('dialog')
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    const date = screen.getByLabelText('Date')
    await waitFor(() => expect(date.getAttribute('aria-invalid')).toBe('true'))
    expect(screen.getByText('Outside the doctor’s hours.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }))
    expect((await screen.findByRole('alert')).textContent).toContain('already has an appointment from 10:00')
  })

  it('edits an appointment: its patient shown and kept, its day and time filled in', async () => {
    const a = { id: 5, version: 2, patient_id: 7, doctor_id: 3, starts_at: dayjs('2099-12-03T09:10:00').format(), duration_minutes: 20, type: 'new', reason: 'Rash', remarks: '', patient, status: 'booked' } as unknown as Appointment
    const view = await renderScreen(<BookingModal open onClose={() => {}} appointment={a} date="2099-12-03" />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] }, 'GET /appointments/5/messages': { data: [] }, 'PUT /appointments/5': { ...a, queue_number: 1 } },
    })
    await screen.findByRole('dialog', { name: 'Change the appointment' })
    expect((screen.getByLabelText('Patient') as HTMLInputElement).disabled).toBe(true)
    expect((screen.getByLabelText('Time') as HTMLInputElement).value).toBe('09:10')
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(view.sent[0]?.body).toMatchObject({ patient_id: 7, starts_at: a.starts_at, version: 2 }))
  })
})
