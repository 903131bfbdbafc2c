// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { renderScreen, user } from '../../../test/render'
import type { Appointment, Visit, VisitContent } from '../api/types'
import { emptyVitals } from '../vitals'
import { COPYABLE, CopyForwardDialog, copyInto, hasPart, tickedAtFirst } from './CopyForwardDialog'

const draft: VisitContent = {
  vitals: emptyVitals(), vitals_copied_from: '', chief_complaint: 'Cough', present_illness: '', examination: '',
  diagnoses: [{ code: 'J06.9', text: '', primary: true }], orders: [], plan: '', follow_up_date: '',
}
const before: VisitContent = {
  ...draft,
  vitals: { ...emptyVitals(), bp_systolic: 150, bp_diastolic: 95 },
  chief_complaint: 'Headaches',
  examination: 'Lungs clear.',
  diagnoses: [{ code: 'I10', text: '', primary: true }, { code: 'J06.9', text: '', primary: false }],
  plan: '',
}

describe('copy forward', () => {
  it('adds copied text after what is typed, adds only the diagnoses missing (never a second primary), and dates copied vitals', () => {
    const out = copyInto(draft, before, '2026-11-20', ['vitals', 'chief_complaint', 'examination', 'diagnoses'])
    expect(out.chief_complaint).toBe('Cough\nHeadaches')
    expect(out.examination).toBe('Lungs clear.')
    expect(out.diagnoses).toEqual([{ code: 'J06.9', text: '', primary: true }, { code: 'I10', text: '', primary: false }])
    expect(out.vitals.bp_systolic).toBe(150)
    expect(out.vitals_copied_from).toBe('2026-11-20')
  })

  it('copies only the chosen parts, and offers only the parts the earlier visit has', () => {
    const out = copyInto(draft, before, '2026-11-20', ['examination'])
    expect(out.vitals_copied_from).toBe('')
    expect(out.chief_complaint).toBe('Cough')
    expect(hasPart(before, 'plan')).toBe(false)
    expect(hasPart(before, 'vitals')).toBe(true)
  })

  // Clinic-day review, m7: copying measurements forward is opt-in; the history parts stay ticked.
  it('leaves vitals unticked at first and ticks the history parts', () => {
    expect(tickedAtFirst([...COPYABLE])).toEqual(['chief_complaint', 'present_illness', 'examination', 'diagnoses', 'plan'])
    expect(tickedAtFirst(['vitals'])).toEqual([])
  })
})

afterEach(cleanup)

const today = { id: 2, patient_id: 9, starts_at: '2026-11-30T02:00:00Z' } as Appointment
const earlier = { id: 1, patient_id: 9, starts_at: '2026-11-20T02:00:00Z', day: '2026-11-20', status: 'completed', doctor_name: 'Dr Minh' } as Appointment
const visitBefore = { ...before, appointment_id: 1, status: 'signed', version: 2, amendments: [] } as unknown as Visit

/** The dialog over the patient's history (the earlier visit, or none). */
async function open(history: Appointment[]) {
  const onCopy = vi.fn()
  const onClose = vi.fn()
  const view = await renderScreen(<CopyForwardDialog a={today} content={() => draft} onCopy={onCopy} onClose={onClose} />, {
    me: user(['write diagnosis']),
    api: { 'GET /appointments': { data: [today, ...history], meta: { total: history.length + 1 } }, 'GET /appointments/1/visit': visitBefore },
  })
  return { ...view, onCopy, onClose }
}

describe('the copy-forward dialog', () => {
  it('offers the parts the last visit has, the history ticked and the vitals not, focus on the first; copies the chosen ones', async () => {
    const { onCopy, onClose, container } = await open([earlier])
    const dialog = screen.getByRole('dialog', { name: 'Copy from the last visit' })
    const vitals = await within(dialog).findByRole('checkbox', { name: /^Vitals/ })
    expect(within(dialog).getByText('From the visit of 2026-11-20 (Dr Minh):')).toBeTruthy()
    expect(within(dialog).getAllByRole('checkbox').map((c) => c.getAttribute('aria-label') ?? c.closest('label')!.textContent)).toEqual([
      'VitalsBP 150/95',
      'Chief complaintHeadaches',
      'Physical examinationLungs clear.',
      'DiagnosesI10 ; J06.9 ',
    ])
    expect((vitals as HTMLInputElement).checked).toBe(false)
    expect(document.activeElement).toBe(vitals)
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /^Diagnoses/ }))
    fireEvent.click(vitals)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy the chosen parts' }))
    expect(onCopy).toHaveBeenCalledTimes(1)
    const [next, parts, day] = onCopy.mock.calls[0] as [VisitContent, string[], string]
    expect(parts).toEqual(['vitals', 'chief_complaint', 'examination'])
    expect(day).toBe('2026-11-20')
    expect(next.chief_complaint).toBe('Cough\nHeadaches')
    expect(next.vitals_copied_from).toBe('2026-11-20')
    expect(onClose).toHaveBeenCalled()
  })

  it('cannot copy with nothing chosen; Cancel and Escape close it', async () => {
    const { onCopy, onClose } = await open([earlier])
    const dialog = screen.getByRole('dialog', { name: 'Copy from the last visit' })
    for (const name of [/^Chief complaint/, /^Physical examination/, /^Diagnoses/]) fireEvent.click(await within(dialog).findByRole('checkbox', { name }))
    expect((within(dialog).getByRole('button', { name: 'Copy the chosen parts' }) as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(2)
    expect(onCopy).not.toHaveBeenCalled()
  })

  it('says so when the patient has no earlier visit', async () => {
    await open([])
    expect(await screen.findByText('This patient has no earlier visit with anything to copy.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Copy the chosen parts' }) as HTMLButtonElement).disabled).toBe(true)
  })
})
