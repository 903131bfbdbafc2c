// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import type { Schema } from '../../../lib/schema'
import type { OrderSet } from '../api/orderSets'
import { VisitOrderSet } from './VisitOrderSet'

afterEach(cleanup)

const set: OrderSet = {
  id: 7, name: 'Gastritis', scope: 'personal', language: 'en', example: false, mine: true, updated_at: '2026-11-26T08:00:00Z', version: 1,
  content: { diagnoses: [{ code: 'K29.7', text: '', primary: true, label: 'Gastritis, unspecified' }], orders: [], items: [], checks: [], plan: '', follow_up_days: 0 },
}

const visit: Schema<'VisitContent'> = {
  vitals: { bp_systolic: null, bp_diastolic: null, heart_rate: null, respiratory_rate: null, temperature: null, spo2: null, weight: null, height: null, head_circumference: null },
  vitals_copied_from: '', chief_complaint: '', present_illness: '', examination: '',
  diagnoses: [{ code: 'I10', text: '', primary: true }], orders: [], plan: 'Home blood pressure diary.', follow_up_date: '',
}

/** The visit's two buttons and the slot's dialogs, as the visit's toolbar has them. */
function Visit({ onApplied = () => {} }: { onApplied?: () => void }) {
  const [open, setOpen] = useState<'apply' | 'save' | null>(null)
  return (
    <>
      <button type="button" onClick={() => setOpen('apply')}>
        Order set…
      </button>
      <button type="button" onClick={() => setOpen('save')}>
        Save as set…
      </button>
      <VisitOrderSet appointmentId={5} day="2026-11-26" open={open} onClose={() => setOpen(null)} content={() => visit} prepare={async () => 2} onApplied={onApplied} />
    </>
  )
}

const api = {
  'GET /order-sets': { data: [set] },
  'GET /appointments/5/tests-today': { data: [] },
  'GET /appointments/5/prescriptions': { data: [] },
  'POST /appointments/5/order-set': { visit: { id: 5 }, prescription: null, skipped: { diagnoses: [], orders: [], today: [], plan: false, follow_up: false } },
  'POST /order-sets': { id: 8 },
}

async function openWith(name: string, onApplied?: () => void) {
  const view = await renderScreen(<Visit onApplied={onApplied} />, { me: user(['write diagnosis', 'write prescription'], ['doctor']), api })
  const opener = screen.getByRole('button', { name })
  opener.focus()
  fireEvent.click(opener)
  await screen.findByRole('dialog')
  return { view, opener }
}

describe('VisitOrderSet: focus', () => {
  it.each([
    ['Escape', () => fireEvent.keyDown(document.activeElement!, { key: 'Escape' })],
    ['Cancel', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
  ])('the apply dialog takes focus in its picker and gives it back to the visit’s button on %s', async (_, close) => {
    const { opener } = await openWith('Order set…')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Order set' })))
    close()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(opener)
  })

  it('gives focus back to the button after the set is applied', async () => {
    const onApplied = vi.fn()
    const { opener } = await openWith('Order set…', onApplied)
    fireEvent.click(await screen.findByRole('combobox', { name: 'Order set' }))
    fireEvent.click(await screen.findByRole('option', { name: 'Gastritis' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Apply 1 item' }))
    await waitFor(() => expect(onApplied).toHaveBeenCalled())
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(opener)
  })

  it.each([
    ['Escape', () => fireEvent.keyDown(document.activeElement!, { key: 'Escape' })],
    ['Cancel', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
  ])('the save dialog takes focus in the name and gives it back to its button on %s', async (_, close) => {
    const { opener } = await openWith('Save as set…')
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' })))
    close()
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(document.activeElement).toBe(opener)
  })
})

describe('SaveSetDialog', () => {
  it('asks a name, ticks the parts the visit has, and sends the set; focus goes back to the button', async () => {
    const { view, opener } = await openWith('Save as set…')
    expect((screen.getByRole('checkbox', { name: 'Diagnoses (1)' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('checkbox', { name: 'Tests (0)' }) as HTMLInputElement).disabled).toBe(true)
    expect((screen.getByRole('radio', { name: 'The whole clinic' }) as HTMLInputElement).disabled).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Save the set' }))
    expect(await screen.findByText('Give the set a name.')).toBeTruthy()
    expect(view.sent.filter((r) => r.path === '/order-sets')).toEqual([])
    fireEvent.input(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Hypertension review' } })
    fireEvent.click(screen.getByRole('checkbox', { name: /^Plan/ })) // unticked: not kept
    fireEvent.click(screen.getByRole('button', { name: 'Save the set' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const sent = view.sent.find((r) => r.path === '/order-sets')?.body as { name: string; scope: string; content: OrderSet['content'] }
    expect(sent).toMatchObject({ name: 'Hypertension review', scope: 'personal' })
    expect(sent.content.diagnoses.map((d) => d.code)).toEqual(['I10'])
    expect(sent.content.plan).toBe('')
    expect(document.activeElement).toBe(opener)
  })

  it('ticks the visit’s prescription lines when they arrive after the dialog opened (the review of 2026-11-30)', async () => {
    let answer: (v: unknown) => void = () => {}
    const late = new Promise((resolve) => (answer = resolve))
    const line = { medicine_id: 4, medicine: 'Amlodipine 5 mg tablet', dose: '1 tablet', unit: 'tablet', route: 'oral', frequency: 'once daily', duration: '30 days', quantity: '30', refills: 0, instructions: '' }
    const view = await renderScreen(<Visit />, {
      me: user(['write diagnosis', 'write prescription'], ['doctor']),
      api: { ...api, 'GET /appointments/5/prescriptions': () => late },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Save as set…' }))
    await screen.findByRole('dialog')
    expect((screen.getByRole('checkbox', { name: 'Prescription lines (0)' }) as HTMLInputElement).checked).toBe(false)
    answer({ data: [{ id: 1, status: 'active', items: [line] }] })
    await waitFor(() => expect((screen.getByRole('checkbox', { name: 'Prescription lines (1)' }) as HTMLInputElement).checked).toBe(true))
    fireEvent.input(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Hypertension' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save the set' }))
    await waitFor(() => expect(view.sent.some((r) => r.path === '/order-sets')).toBe(true))
    const sent = view.sent.find((r) => r.path === '/order-sets')?.body as { content: OrderSet['content'] }
    expect(sent.content.items.map((it) => it.medicine)).toEqual(['Amlodipine 5 mg tablet'])
  })
})
