// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Refusal, renderScreen, user } from '../../../test/render'
import type { Schema } from '../../../lib/schema'
import type { Finding, OrderSet } from '../api/orderSets'
import { ApplySetDialog } from './ApplySetDialog'

afterEach(cleanup)

const line = { medicine_id: 11, medicine: 'Amlodipine 5 mg tablet', dose: '1 tablet', route: 'oral', frequency: 'once daily', duration: '30 days', quantity: '30', unit: 'tablet', refills: 0, instructions: '', override_reason: '', overrides: [] }

const htn: OrderSet = {
  id: 3, name: 'Hypertension — follow-up (example)', scope: 'clinic', language: 'en', example: true, mine: false, updated_at: '2026-11-26T08:00:00Z', version: 1,
  content: {
    diagnoses: [{ code: 'I10', text: '', primary: true, label: 'Essential (primary) hypertension' }],
    orders: [{ code: 'BMP', note: '', label: 'Basic metabolic panel' }, { code: 'LIPID', note: '', label: 'Lipid panel' }],
    items: [line] as OrderSet['content']['items'],
    checks: [{ text: '12-lead ECG on record', done: false }],
    plan: 'Home blood pressure diary.',
    follow_up_days: 28,
  },
}

const visit: Schema<'VisitContent'> = {
  vitals: { bp_systolic: 138, bp_diastolic: 86, heart_rate: null, respiratory_rate: null, temperature: null, spo2: null, weight: null, height: null, head_circumference: null },
  vitals_copied_from: '', chief_complaint: '', present_illness: '', examination: '',
  diagnoses: [], orders: [{ code: 'LIPID', note: '' }], plan: '', follow_up_date: '',
}

const duplicate = { line: 0, key: 'duplicate_recent:amlodipine:41', kind: 'duplicate_recent', tier: 'high', blocking: false, requires_reason: true, substance: 'amlodipine', other_prescription_id: 41, other_medicine: 'Amlodipine 5 mg tablet', other_date: '2026-11-20', overridden: false } as unknown as Finding

const syrup = { ...line, medicine_id: 12, medicine: 'Paracetamol 120 mg/5 mL syrup', dose: '15 mg/kg', frequency: 'every 6 hours if needed', duration: '3 days', quantity: '100', unit: 'mL' }
const uri: OrderSet = {
  ...htn, id: 4, name: 'Upper respiratory infection (child)',
  content: { diagnoses: [{ code: 'J06.9', text: '', primary: true, label: 'Acute upper respiratory infection' }], orders: [], items: [syrup] as OrderSet['content']['items'], checks: [], plan: '', follow_up_days: 0 },
}

async function open(api: Record<string, unknown>, onApplied = vi.fn(), { set = htn, content = visit } = {}) {
  const view = await renderScreen(
    <ApplySetDialog appointmentId={5} day="2026-11-26" content={() => content} prepare={async () => 4} onApplied={onApplied} onClose={() => {}} />,
    { me: user(['write diagnosis', 'write prescription'], ['doctor']), api: { 'GET /order-sets': { data: [htn, uri] }, 'GET /appointments/5/tests-today': { data: [] }, ...api } },
  )
  fireEvent.click(await screen.findByRole('combobox', { name: 'Order set' }))
  fireEvent.click(await screen.findByRole('option', { name: `${set.name} · example` }))
  await screen.findByRole('checkbox', { name: new RegExp(set.content.diagnoses[0].code) }) // the set's draft, once the day's tests are known
  return view
}

const applied = { visit: { id: 5 }, prescription: null, skipped: { diagnoses: [], orders: [], today: [], plan: false, follow_up: false } }

describe('ApplySetDialog', () => {
  it('shows every item checked, what the visit has already unchecked, and the follow-up date it gives', async () => {
    await open({ 'POST /prescriptions/check': { findings: [] } })
    expect((screen.getByRole('checkbox', { name: /I10 — Essential/ }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('checkbox', { name: 'Basic metabolic panel' }) as HTMLInputElement).checked).toBe(true)
    const lipid = screen.getByRole('checkbox', { name: 'Lipid panel' }) as HTMLInputElement
    expect(lipid.checked).toBe(false)
    expect(within(lipid.closest('div')!).getByText('already on this visit')).toBeTruthy()
    expect(screen.getByText(/24\/12\/2026|2026-12-24|Dec 24, 2026|24 Dec 2026/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Apply 5 items' })).toBeTruthy()
  })

  it('asks a reason for a line the check finds, and sends it with the finding it covers and only what stays checked', async () => {
    const onApplied = vi.fn()
    const view = await open(
      {
        'POST /prescriptions/check': { findings: [duplicate] },
        'POST /appointments/5/order-set': applied,
      },
      onApplied,
    )
    const reason = await screen.findByRole('textbox', { name: 'Reason to prescribe Amlodipine 5 mg tablet anyway' })
    expect(screen.getByTestId('rx-safety').textContent).toMatch(/Amlodipine/)
    fireEvent.input(reason, { target: { value: 'Second script for the pharmacy' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'Basic metabolic panel' })) // unchecked: not sent
    fireEvent.input(screen.getByRole('textbox', { name: 'Dose — Amlodipine 5 mg tablet' }), { target: { value: '2 tablets' } })
    fireEvent.click(screen.getByRole('button', { name: 'Apply 4 items' }))
    await waitFor(() => expect(onApplied).toHaveBeenCalled())
    const sent = view.sent.find((r) => r.path === '/appointments/5/order-set')?.body as { set_id: number; version: number; content: OrderSet['content'] }
    expect(sent.set_id).toBe(3)
    expect(sent.version).toBe(4)
    expect(sent.content.orders).toEqual([])
    expect(sent.content.diagnoses.map((d) => d.code)).toEqual(['I10'])
    expect(sent.content.items[0]).toMatchObject({ dose: '2 tablets', override_reason: 'Second script for the pharmacy', overrides: ['duplicate_recent:amlodipine:41'] })
    expect(sent.content.follow_up_days).toBe(28)
    expect(sent.content.checks).toEqual([{ text: '12-lead ECG on record', done: false }])
  })

  it('asks its checks unticked and sends as done only the one the doctor ticks', async () => {
    const onApplied = vi.fn()
    const view = await open({ 'POST /prescriptions/check': { findings: [] }, 'POST /appointments/5/order-set': applied }, onApplied)
    const ecg = screen.getByRole('checkbox', { name: '12-lead ECG on record' }) as HTMLInputElement
    expect(ecg.checked).toBe(false)
    expect(screen.getByText(/each ticked item is recorded in the plan/)).toBeTruthy()
    fireEvent.click(ecg)
    fireEvent.click(screen.getByRole('button', { name: 'Apply 6 items' }))
    await waitFor(() => expect(onApplied).toHaveBeenCalled())
    const sent = view.sent.find((r) => r.path === '/appointments/5/order-set')?.body as { content: OrderSet['content'] }
    expect(sent.content.checks).toEqual([{ text: '12-lead ECG on record', done: true }])
  })

  it('marks a test resulted today, leaves it unticked, and orders it again only when ticked', async () => {
    const onApplied = vi.fn()
    const view = await open(
      { 'GET /appointments/5/tests-today': { data: [{ code: 'BMP', state: 'resulted' }] }, 'POST /prescriptions/check': { findings: [] }, 'POST /appointments/5/order-set': applied },
      onApplied,
    )
    const bmp = screen.getByRole('checkbox', { name: 'Basic metabolic panel' }) as HTMLInputElement
    expect(bmp.checked).toBe(false)
    expect(within(bmp.closest('div')!).getByText('resulted today')).toBeTruthy()
    fireEvent.click(bmp)
    fireEvent.click(screen.getByRole('button', { name: 'Apply 5 items' }))
    await waitFor(() => expect(onApplied).toHaveBeenCalled())
    const sent = view.sent.find((r) => r.path === '/appointments/5/order-set')?.body as { repeat: string[]; content: OrderSet['content'] }
    expect(sent.repeat).toEqual(['BMP'])
    expect(sent.content.orders.map((o) => o.code)).toEqual(['BMP'])
  })

  // Clinic-day review, m8: a set chosen before the day's tests have arrived still marks the
  // tests done this morning and leaves them unticked.
  it('marks a test ordered today even when the set is chosen before the day\'s tests arrive', async () => {
    let arrive: (v: unknown) => void = () => {}
    const late = new Promise((resolve) => (arrive = resolve))
    await renderScreen(<ApplySetDialog appointmentId={5} day="2026-11-26" content={() => visit} prepare={async () => 4} onApplied={() => {}} onClose={() => {}} />, {
      me: user(['write diagnosis', 'write prescription'], ['doctor']),
      api: { 'GET /order-sets': { data: [htn] }, 'GET /appointments/5/tests-today': () => late, 'POST /prescriptions/check': { findings: [] } },
    })
    fireEvent.click(await screen.findByRole('combobox', { name: 'Order set' }))
    fireEvent.click(await screen.findByRole('option', { name: `${htn.name} · example` }))
    arrive({ data: [{ code: 'BMP', state: 'ordered' }] })
    const bmp = (await screen.findByRole('checkbox', { name: 'Basic metabolic panel' })) as HTMLInputElement
    expect(bmp.checked).toBe(false)
    expect(within(bmp.closest('div')!).getByText('ordered today')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Apply 4 items' })).toBeTruthy()
  })

  it("works out a child's dose by weight from the weight measured at the visit (15 mg/kg, BNFc)", async () => {
    const child = { ...visit, vitals: { ...visit.vitals, weight: 12 }, orders: [] }
    await open({ 'POST /prescriptions/check': { findings: [] } }, vi.fn(), { set: uri, content: child })
    expect(screen.getByText('15 mg/kg × 12 kg = 180 mg = 7.5 mL')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Use this dose' }))
    expect((screen.getByRole('textbox', { name: 'Dose — Paracetamol 120 mg/5 mL syrup' }) as HTMLInputElement).value).toBe('180 mg (7.5 mL)')
  })

  it('asks to weigh a child with no weight at the visit', async () => {
    await open({ 'POST /prescriptions/check': { findings: [] } }, vi.fn(), { set: uri })
    expect(screen.getByText('No weight recorded at this visit: weigh the patient to work out the dose.')).toBeTruthy()
  })

  it("shows the server's refusal on the line it names", async () => {
    const refusal = () => {
      const body = { error: 'Some fields need your attention.', code: 'validation.failed', errors: { 'items.0.override_reason': ['This line has a safety warning: give the reason to prescribe it anyway.'] } }
      throw new Refusal(422, body)
    }
    await open({ 'POST /prescriptions/check': { findings: [] }, 'POST /appointments/5/order-set': refusal })
    fireEvent.click(await screen.findByRole('button', { name: 'Apply 5 items' }))
    // Under the reason's field (which is marked wrong and described by it), as well as in the dialog's alert.
    const reason = await screen.findByRole('textbox', { name: 'Reason to prescribe Amlodipine 5 mg tablet anyway' })
    await waitFor(() => expect(reason.getAttribute('aria-invalid')).toBe('true'))
    expect(document.getElementById(reason.getAttribute('aria-describedby')!)?.textContent).toBe('This line has a safety warning: give the reason to prescribe it anyway.')
    expect(screen.getByRole('alert').textContent).toMatch(/give the reason to prescribe it anyway/)
  })
})
