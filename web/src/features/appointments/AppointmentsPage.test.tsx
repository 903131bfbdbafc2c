// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useLocation } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import type { Appointment } from './api/types'
import AppointmentsPage from './AppointmentsPage'

afterEach(cleanup)

const DAY = '2026-11-25'

export const appointment = (id: number, last: string, status: Appointment['status'], extra: Partial<Appointment> = {}): Appointment => ({
  id, patient_id: 100 + id, doctor_id: 3, doctor_name: 'Dr Lee', day: DAY, starts_at: `${DAY}T0${id}:00:00`, duration_minutes: 15, queue_number: id, status, type: 'new', reason: 'Cough', remarks: '', cancel_reason: '', confirmed_at: null,
  follow_up_of: null, version: 1, visit_status: '', created_at: DAY, updated_at: DAY,
  patient: { first_name: 'An', middle_name: '', last_name: last, mrn: `2026-00000${id}`, birth_date: '1980-02-03', sex: 'female' },
  ...extra,
})

function Where() {
  return <output data-testid="where">{useLocation().search}</output>
}

const show = async (permissions: string[], at = `/appointments/appointments?date=${DAY}&doctor=3`) =>
  renderScreen(
    <>
      <AppointmentsPage />
      <Where />
    </>,
    {
      me: user(permissions),
      route: '/appointments/appointments',
      at,
      api: {
        'GET /doctors': { data: [{ id: 3, name: 'Dr Lee' }, { id: 4, name: 'Dr Mai' }] },
        'GET /appointments': ({ params }: { params: Record<string, unknown> }) => ({
          data: params.from ? [appointment(1, 'Trần', 'booked')] : [appointment(1, 'Trần', 'booked', { confirmed_at: `${DAY}T07:00:00` }), appointment(2, 'Lê', 'arrived'), appointment(3, 'Phạm', 'cancelled', { cancel_reason: 'Ill' })],
          meta: { total: 3 },
        }),
        'GET /booking-requests': { data: [] },
        'GET /bill-tags': { data: [] },
        'POST /appointments/1/arrive': appointment(1, 'Trần', 'arrived'),
        'POST /appointments/1/cancel': appointment(1, 'Trần', 'cancelled'),
        'POST /appointments/queue': {},
      },
    },
  )

const DESK = ['manage appointment']
const table = () => screen.getByRole('table', { name: 'Appointments' })
const rows = () => within(table()).getAllByRole('row').slice(1)

describe('AppointmentsPage', () => {
  it('shows the day’s queue as a table with its tags, muted cancelled rows and the summary under it', async () => {
    const { container } = await show(DESK)
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(screen.getByRole('heading', { name: 'Appointments', level: 2 })).toBeTruthy()
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['No.', 'Time', 'Patient', 'Type', 'Reason', 'Status', 'Actions'])
    expect(within(rows()[0]!).getByText('Booked')).toBeTruthy()
    expect(within(rows()[0]!).getByTestId('confirmed-by-patient').textContent).toBe('Confirmed by patient')
    expect(rows()[2]!.className).toBe('emr-row-muted')
    expect(screen.getByText('3 in the queue · 1 waiting · 0 completed')).toBeTruthy()
    expect((screen.getByRole('radio', { name: 'Day queue' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('combobox', { name: 'Doctor' }) as HTMLSelectElement).value).toBe('3')
    expect((screen.getByRole('textbox', { name: 'Date' }) as HTMLInputElement).value).toBe(DAY)
    expect(await axeViolations(container)).toEqual([])
  })

  it('marks a patient arrived with a toast, and moves a number up', async () => {
    const { sent } = await show(DESK)
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'Arrived' }))
    await waitFor(() => expect(screen.getByText('Marked as arrived')).toBeTruthy())
    fireEvent.click(screen.getByRole('button', { name: 'Move number 2 up' }))
    await waitFor(() => expect(sent.at(-1)).toEqual({ method: 'POST', path: '/appointments/queue', body: { date: DAY, doctor_id: 3, ids: [2, 1, 3] } }))
    await waitFor(() => expect(screen.getByText('Queue order saved')).toBeTruthy())
    expect((screen.getByRole('button', { name: 'Move number 1 up' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('cancels from the row’s menu only with a reason', async () => {
    const { sent } = await show(DESK)
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.click(screen.getByRole('button', { name: 'More actions for An Trần' }))
    fireEvent.click(screen.getByRole('menuitem', { name: 'Cancel appointment' }))
    const dialog = screen.getByRole('dialog', { name: 'Cancel the appointment of An Trần?' })
    const ok = within(dialog).getByRole('button', { name: 'Cancel appointment' }) as HTMLButtonElement
    expect(ok.disabled).toBe(true)
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Reason for cancelling (required)'))
    fireEvent.input(within(dialog).getByLabelText('Reason for cancelling (required)'), { target: { value: 'Travelling' } })
    fireEvent.click(ok)
    await waitFor(() => expect(sent.at(-1)).toEqual({ method: 'POST', path: '/appointments/1/cancel', body: { version: 1, reason: 'Travelling' } }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('changes the filters in the address, and shows the week', async () => {
    await show(DESK)
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'arrived' } })
    expect(screen.getByTestId('where').textContent).toContain('status=arrived')
    fireEvent.click(screen.getByRole('button', { name: 'Next day' }))
    expect(screen.getByTestId('where').textContent).toContain('date=2026-11-26')
    fireEvent.click(screen.getByRole('radio', { name: 'Week' }))
    expect(screen.getByTestId('where').textContent).toContain('view=week')
    expect(await screen.findByRole('table', { name: 'Week' })).toBeTruthy()
    expect((screen.getByRole('textbox', { name: 'Week' }) as HTMLInputElement).value).toBe('2026-11-23 – 2026-11-29')
    expect(screen.getByRole('button', { name: 'Next week' })).toBeTruthy()
  })
})
