// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { Refusal, renderScreen, user } from '../../../test/render'
import type { CurrentMedicine } from '../api/currentMedicines'
import { CheckedDialog, MedicineDialog, StopDialog } from './CurrentMedicineDialogs'

afterEach(cleanup)

const aspirin = {
  id: 8, patient_id: 9, medicine_id: null, medicine: 'Aspirin 81 mg', dose: '', frequency: '', source: 'elsewhere', prescriber: '', started_on: '', recorded_at: '2026-11-20T08:00:00Z',
  recorded_by: 'Nurse Hoa', confirmed_at: null, confirmed_appointment_id: null, stopped_on: '', stop_reason: '', version: 1, stop_category: '', stopped_appointment_id: null, route: '',
  indication: '', last_dose: '', adherence: '', information_source: '', error_reason: '', error_at: null, needs_review: false, reviewed_at: null,
} as CurrentMedicine

describe('MedicineDialog', () => {
  it('asks for the medicine and a time as HH:MM before anything is sent, the first message taking focus', async () => {
    const { sent } = await renderScreen(<MedicineDialog patientId={9} onClose={() => {}} onSaved={() => {}} />, { me: user(['record vitals']), api: {} })
    const dialog = screen.getByRole('dialog', { name: 'Add a medicine the patient takes' })
    fireEvent.input(within(dialog).getByLabelText('Time (optional)'), { target: { value: '8h' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Enter the medicine.')).toBeTruthy()
    expect(within(dialog).getByText('Enter the time as HH:MM, e.g. 08:30.')).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: 'Medicine' })))
    expect(within(dialog).getByRole('combobox', { name: 'Medicine' }).getAttribute('aria-invalid')).toBe('true')
    expect(sent).toHaveLength(0)
    expect(await axeViolations(dialog)).toEqual([])
  })

  it("shows the server's word on the last dose under its day", async () => {
    const onSaved = vi.fn()
    await renderScreen(<MedicineDialog patientId={9} m={{ ...aspirin, last_dose: '2026-11-28' }} onClose={() => {}} onSaved={onSaved} />, {
      me: user(['record vitals']),
      api: {
        'PUT /current-medicines/8': () => {
          throw new Refusal(422, { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: { last_dose: ['The last dose cannot be in the future.'] } })
        },
      },
    })
    const dialog = screen.getByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('The last dose cannot be in the future.')).toBeTruthy()
    expect(within(dialog).getByLabelText('Last dose taken').getAttribute('aria-invalid')).toBe('true')
    expect(onSaved).not.toHaveBeenCalled()
  })
})

describe('CheckedDialog', () => {
  it('says in an alert that the check could not read the medicine, and its findings, until OK', async () => {
    const onClose = vi.fn()
    const findings = [{ line: 0, key: 'allergy:aspirin', kind: 'allergy', tier: 'hard', blocking: false, requires_reason: true, allergy: 'Aspirin', substance: 'aspirin', overridden: false }]
    await renderScreen(<CheckedDialog saved={{ ...aspirin, read_as: [], findings } as CurrentMedicine} onClose={onClose} />, { me: user(['record vitals']), api: {} })
    // An alert dialog, described by what it says, focus on its OK (an accessibility review).
    const dialog = screen.getByRole('alertdialog', { name: 'Recorded — the safety check has something to say about Aspirin 81 mg' })
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toContain('Recorded as taken; tell the doctor.')
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'OK' })))
    // The notice is read with the dialog's description, not as an alert of its own (a pharmacist's review); the findings stay an alert.
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent).toContain('the safety check cannot see this medicine')
    expect(within(dialog).getAllByRole('alert')).toEqual([within(dialog).getByTestId('rx-safety')])
    expect(within(dialog).getByTestId('rx-safety').textContent).toContain('Recorded as taken; tell the doctor.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
    expect(onClose).toHaveBeenCalled()
  })
})

describe('StopDialog', () => {
  it('starts on today, asks why, and has no axe findings', async () => {
    await renderScreen(<StopDialog m={aspirin} onClose={() => {}} />, { me: user(['record vitals']), api: {} })
    const dialog = screen.getByRole('dialog', { name: 'Stop Aspirin 81 mg' })
    expect((within(dialog).getByLabelText('Stopped on') as HTMLInputElement).value).not.toBe('')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    expect(await within(dialog).findByText('Choose why it was stopped.')).toBeTruthy()
    expect(await axeViolations(dialog)).toEqual([])
  })
})
