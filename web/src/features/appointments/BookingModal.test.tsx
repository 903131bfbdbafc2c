// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react'
import dayjs from 'dayjs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { BookingModal } from './BookingModal'
import { soonestSlot } from './soonestSlot'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** The doctor field once its list has arrived, and the doctor it shows chosen ('' for none). */
const doctorChosen = async () => {
  const dialog = await screen.findByRole('dialog')
  const field = () => dialog.querySelector('#booking_doctor_id')?.closest('.ant-select')
  await waitFor(() => expect(field()?.classList.contains('ant-select-loading')).toBe(false))
  return field()?.querySelector('.ant-select-content-has-value')?.textContent ?? ''
}

// Clinic-day review, m2: a clinic with one doctor books with that doctor; with several, the
// receptionist chooses (the field starts empty).
describe('BookingModal', () => {
  it('picks the only doctor', async () => {
    await renderScreen(<BookingModal open onClose={() => {}} date="2026-12-01" />, {
      me: user(['manage appointment']),
      api: { 'GET /doctors': { data: [{ id: 3, name: 'Dr Binh' }] } },
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
            : { data: [], meta: { total: 0, page: 1, per_page: 200 } },
      },
    })
    const time = (await screen.findByRole('dialog')).querySelector<HTMLInputElement>('#booking_time')!
    await waitFor(() => expect([time.value, view.unanswered]).toEqual([held.add(20, 'minute').format('HH:mm'), []]))
  })
})
