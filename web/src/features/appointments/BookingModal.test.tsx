// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { BookingModal } from './BookingModal'

afterEach(cleanup)

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
})
