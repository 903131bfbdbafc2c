// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { SlotProvider } from '../../lib/slots'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user, type Fixture } from '../../test/render'
import type { Appointment, Visit } from './api/types'
import DiagnosisPage from './DiagnosisPage'

/** The visit's save state (the toasts' region is a status too). */
const saveState = () => screen.getAllByRole('status').find((s) => !s.hasAttribute('data-emr-toasts'))!

afterEach(cleanup)

const appointment = {
  id: 1, patient_id: 9, patient: { mrn: '2026-000009', first_name: 'Lan', middle_name: '', last_name: 'Tran', sex: 'female', birth_date: '1984-03-04' },
  doctor_id: 2, doctor_name: 'Dr Minh', starts_at: '2026-11-30T02:00:00Z', duration_minutes: 15, day: '2026-11-30', queue_number: 1,
  type: 'follow-up', reason: 'Headache', remarks: '', status: 'in-progress', cancel_reason: '', follow_up_of: null, confirmed_at: null,
  visit_status: 'draft', created_at: '2026-11-29T08:00:00Z', updated_at: '2026-11-30T02:00:00Z', version: 3,
} as Appointment

/** The visit as the server answers it: a draft with a complaint, a diagnosis and an order. */
function visit(over: Partial<Visit> = {}): Visit {
  return {
    appointment_id: 1, status: 'draft', version: 2, updated_at: '2026-11-30T02:05:00Z', updated_by: 'Dr Minh', signed_at: null, signed_by: '',
    vitals: { bp_systolic: 128, bp_diastolic: 82, heart_rate: null, respiratory_rate: null, temperature: null, spo2: null, weight: null, height: null },
    vitals_copied_from: '', vital_flags: {}, vital_bands: [], bmi: null,
    chief_complaint: 'Headache for three days', present_illness: 'Worse in the morning', examination: 'No focal signs',
    diagnoses: [{ code: '', text: 'Tension headache', primary: true }], orders: [{ code: 'CBC', note: 'fasting', label: 'Complete blood count' }],
    plan: 'Rest', follow_up_date: '', follow_up: null, amendments: [],
    ...over,
  } as Visit
}

/** What the page reads besides the visit: the appointment, the patient's head, the tests, the doctor's aids. */
const reads = (current: () => Visit, more: Record<string, Fixture> = {}) => ({
  'GET /appointments/1': appointment,
  'GET /appointments/1/visit': () => current(),
  'GET /patients/9': { id: 9, sex: 'female', birth_date: '1984-03-04', history: { allergy_status: 'none', allergies: [] } },
  'GET /lab-tests': { data: [{ code: 'CBC', kind: 'lab', label: 'Complete blood count', includes: [] }] },
  'GET /snippets': { data: [] },
  'GET /appointments/1/chart-values': { values: {} },
  'GET /favourites': { tests: [], medicines: [], codes: [] },
  ...more,
})

const doctor = user(['write diagnosis', 'record vitals', 'view appointment'])
/** The prescriptions' slot, filled as the app fills it, to see the section hand over the visit. */
const page = (
  <SlotProvider value={{ visitPrescriptions: ({ appointmentId, closed }) => <p data-testid="rx">{`prescriptions of ${appointmentId}${closed ? ', closed' : ''}`}</p> }}>
    <DiagnosisPage />
  </SlotProvider>
)
const open = (api: Record<string, Fixture>, me = doctor, cache: [readonly unknown[], unknown][] = []) => renderScreen(page, { me, api, route: '/appointments/form/:id', at: '/appointments/form/1', cache })

const conflict = () => {
  throw new Refusal(409, { error: 'Someone else changed this.', code: 'error.conflict' })
}

describe('the visit form (DiagnosisPage)', () => {
  it('shows each section of the draft with what the visit holds, and its prescriptions', async () => {
    await open(reads(() => visit()))
    for (const title of ['Vitals', 'Complaint, history and examination', 'Diagnoses', 'Laboratory and imaging orders', 'Plan and follow-up']) {
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy()
    }
    expect((screen.getByLabelText('Chief complaint') as HTMLTextAreaElement).value).toBe('Headache for three days')
    expect((screen.getByLabelText('History of present illness') as HTMLTextAreaElement).value).toBe('Worse in the morning')
    expect((screen.getByLabelText('Physical examination') as HTMLTextAreaElement).value).toBe('No focal signs')
    expect((screen.getByLabelText('BP systolic') as HTMLInputElement).value).toBe('128')
    expect((screen.getByLabelText('Or free text') as HTMLInputElement).value).toBe('Tension headache')
    expect((screen.getByLabelText('Plan / remarks') as HTMLTextAreaElement).value).toBe('Rest')
    expect(within(document.getElementById('visit-orders')!).getByDisplayValue('Complete blood count')).toBeTruthy()
    expect(screen.getByTestId('rx').textContent).toBe('prescriptions of 1')
    expect(screen.getByRole('button', { name: 'Sign' })).toBeTruthy()
    expect(saveState().textContent).toMatch(/^Saved at/)
  })

  it('asks the head circumference of a child under 5 (the WHO growth standards), not of an adult', async () => {
    await open(reads(() => visit()))
    await screen.findByLabelText('BP systolic')
    expect(screen.queryByLabelText('Head circumference')).toBeNull()
    cleanup()
    const child = { ...appointment, patient: { ...appointment.patient, birth_date: '2025-06-01' } }
    await open({ ...reads(() => visit()), 'GET /appointments/1': child })
    expect(await screen.findByLabelText('Head circumference')).toBeTruthy()
  })

  it('saves what is typed by itself, at the version read, with the rest of the draft', async () => {
    const view = await open(reads(() => visit(), { 'PUT /appointments/1/visit': ({ body }: { body: unknown }) => visit({ ...(body as Partial<Visit>), version: 3 }) }))
    fireEvent.input(await screen.findByLabelText('Physical examination'), { target: { value: 'Neck stiff' } })
    expect(saveState().textContent).toMatch(/^Unsaved changes/)
    await waitFor(() => expect(view.sent).toHaveLength(1))
    expect(view.sent[0]).toMatchObject({ method: 'PUT', path: '/appointments/1/visit', body: { examination: 'Neck stiff', chief_complaint: 'Headache for three days', version: 2 } })
    await waitFor(() => expect(saveState().textContent).toMatch(/^Saved at/))
  })

  it('says so when someone else saved first (409), and loads their version keeping what was typed', async () => {
    let current = visit()
    let refuse = true
    const view = await open(
      reads(() => current, {
        'PUT /appointments/1/visit': ({ body }: { body: unknown }) => (refuse ? conflict() : visit({ ...(body as Partial<Visit>), version: 6 })),
      }),
    )
    fireEvent.input(await screen.findByLabelText('Physical examination'), { target: { value: 'Neck stiff' } })
    const alert = await screen.findByText('Someone else saved this visit while you were typing')
    expect(saveState().textContent).toBe('Not saved: someone else saved first')
    // Theirs: a plan written meanwhile, at a newer version.
    current = visit({ plan: 'Ibuprofen as needed', version: 5 })
    refuse = false
    fireEvent.click(within(alert.closest('[role=alert]') as HTMLElement).getByRole('button', { name: 'Load their version and keep my changes' }))
    await waitFor(() => expect(view.sent).toHaveLength(2))
    expect(view.sent[1].body).toMatchObject({ examination: 'Neck stiff', plan: 'Ibuprofen as needed', version: 5 })
    expect((screen.getByLabelText('Plan / remarks') as HTMLTextAreaElement).value).toBe('Ibuprofen as needed')
    await waitFor(() => expect(screen.queryByText('Someone else saved this visit while you were typing')).toBeNull())
  })

  it('keeps a code chosen here shown in full when its row is drawn anew: the first of three removed (a clinician’s review)', async () => {
    const codes = [
      { code: 'J06.9', label: 'Acute upper respiratory infection' },
      { code: 'I10', label: 'Essential (primary) hypertension' },
      { code: 'N39.0', label: 'Urinary tract infection' },
    ]
    const three = visit({ diagnoses: ['a', 'b', 'c'].map((text, i) => ({ code: '', text, primary: i === 0 })) })
    const view = await open(
      reads(() => three, {
        'GET /diagnosis-codes': ({ params }: { params: Record<string, unknown> }) => ({ data: codes.filter((c) => c.code.startsWith(String(params.q ?? ''))) }),
        'PUT /appointments/1/visit': ({ body }: { body: unknown }) => visit({ ...(body as Partial<Visit>), version: 3 }),
      }),
    )
    await screen.findByLabelText('Chief complaint')
    const boxes = () => screen.getAllByRole('combobox', { name: 'Code' }) as HTMLInputElement[]
    for (const [i, c] of codes.entries()) {
      fireEvent.focus(boxes()[i]!)
      fireEvent.input(boxes()[i]!, { target: { value: c.code } })
      await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([`${c.code} — ${c.label}`]))
      fireEvent.keyDown(boxes()[i]!, { key: 'Enter' })
      fireEvent.blur(boxes()[i]!)
      await waitFor(() => expect(boxes()[i]!.value).toBe(`${c.code} — ${c.label}`))
    }
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove this diagnosis' })[0]!)
    await waitFor(() => expect(boxes().map((b) => b.value)).toEqual(['I10 — Essential (primary) hypertension', 'N39.0 — Urinary tract infection']))
    expect((screen.getAllByLabelText('Or free text') as HTMLInputElement[]).map((t) => t.value)).toEqual(['b', 'c'])
    await waitFor(() => expect(view.sent.at(-1)?.body).toMatchObject({ diagnoses: [{ code: 'I10', text: 'b' }, { code: 'N39.0', text: 'c' }] }))
  })

  it('reads the patient beside the appointment when the queue already showed whose it is, and still waits for the appointment', async () => {
    const log: string[] = []
    const api = reads(() => visit(), {
      'GET /appointments/1': () => {
        log.push('appointment asked')
        return new Promise((answer) => setTimeout(() => (log.push('appointment answered'), answer(appointment)), 100))
      },
      'GET /patients/9': () => (log.push('patient asked'), { id: 9, sex: 'female', birth_date: '1984-03-04', history: { allergy_status: 'none', allergies: [] } }),
    })
    await open(api, doctor, [[['appointments', 'list', { date: '2026-11-30' }], { data: [appointment], meta: { total: 1, page: 1, per_page: 50 } }]])
    expect(await screen.findByLabelText('Chief complaint')).toBeTruthy()
    expect(log).toEqual(['appointment asked', 'patient asked', 'appointment answered'])
  })

  it('reads a signed visit: nothing can be typed, nothing is saved, and a doctor may amend it', async () => {
    const view = await open(reads(() => visit({ status: 'signed', signed_by: 'Dr Minh', signed_at: '2026-11-30T02:30:00Z' })))
    const complaint = (await screen.findByLabelText('Chief complaint')) as HTMLTextAreaElement
    expect(complaint.disabled).toBe(true)
    expect((screen.getByLabelText('BP systolic') as HTMLInputElement).disabled).toBe(true)
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Amend' })).toBeTruthy()
    expect(view.sent).toHaveLength(0)
  })

  it('lets a nurse write the vitals alone, saved through the vitals operation', async () => {
    const nurse = user(['record vitals', 'view appointment'])
    const view = await open(reads(() => visit(), { 'PUT /appointments/1/visit/vitals': () => visit({ version: 3 }) }), nurse)
    expect(((await screen.findByLabelText('Chief complaint')) as HTMLTextAreaElement).disabled).toBe(true)
    fireEvent.input(screen.getByLabelText('Heart rate'), { target: { value: '72' } })
    await waitFor(() => expect(view.sent).toHaveLength(1))
    expect(view.sent[0]).toMatchObject({ method: 'PUT', path: '/appointments/1/visit/vitals', body: { vitals: { heart_rate: 72, bp_systolic: 128 }, version: 2 } })
  })

  it('names every field of the form for a screen reader: its sections have no axe finding, as a draft and as a signed visit', async () => {
    for (const v of [visit(), visit({ status: 'signed', signed_by: 'Dr Minh', signed_at: '2026-11-30T02:30:00Z' })]) {
      await open(reads(() => v))
      await screen.findByLabelText('Chief complaint')
      for (const id of ['visit-vitals', 'visit-findings', 'visit-diagnoses', 'visit-orders', 'visit-plan']) expect(await axeViolations(document.getElementById(id)!)).toEqual([])
      cleanup()
    }
  })
})
