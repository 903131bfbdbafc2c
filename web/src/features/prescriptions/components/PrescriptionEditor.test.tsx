// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Refusal, renderScreen, user, type Fixture } from '../../../test/render'
import type { Item, Medicine, Prescription } from '../api/types'
import { emptyItem } from '../api/types'
import { PrescriptionEditor } from './PrescriptionEditor'

afterEach(cleanup)

const medicine = (id: number, label: string): Medicine =>
  ({ id, label, unit: 'tablet', unit_label: 'tablet', active: true, atc: '', brand: '', form: 'tablet', generic_name: label, ingredients: '', name_ru: '', name_vi: '', name_zh: '', strength: '', version: 1 }) as Medicine

const augmentin = medicine(1, 'Augmentin 875/125 mg tablet')
const warfarin = medicine(2, 'Warfarin 5 mg tablet')

const line = (): Item => ({ ...emptyItem(), medicine_id: augmentin.id, medicine: augmentin.label, dose: '1 tablet 875/125 mg', frequency: 'twice a day', quantity: '14', unit: 'tablet' })

async function openEditor(items: Item[]) {
  await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={items} onSaved={() => {}} />, {
    me: user(['write prescription']),
    api: { 'GET /medicines': ({ params }: { params: Record<string, unknown> }) => ({ data: [augmentin, warfarin].filter((m) => m.label.toLowerCase().includes(String(params.q).toLowerCase())) }) },
  })
  return screen.getByTestId('rx-line')
}

/** Types over the line's medicine and picks the catalogue's entry. */
async function pick(row: HTMLElement, typed: string, label: string) {
  const input = within(row).getByRole('combobox', { name: 'Medicine' })
  fireEvent.input(input, { target: { value: typed } })
  const option = await screen.findByRole('option', { name: label }, { timeout: 2000 })
  fireEvent.click(option)
}

const field = (row: HTMLElement, name: string) => (within(row).getByLabelText(name) as HTMLInputElement).value

// Clinic-day review, m5: choosing another medicine on a line must not keep the old one's dose,
// frequency and quantity (warfarin twice a day, 14, copied from an antibiotic).
describe('PrescriptionEditor line', () => {
  it('clears dose, frequency and quantity when another medicine is chosen', async () => {
    const row = await openEditor([line()])
    await pick(row, 'warf', warfarin.label)
    await waitFor(() => expect(within(row).getByRole('combobox', { name: 'Medicine' })).toHaveProperty('value', warfarin.label))
    expect(field(row, 'Dose')).toBe('')
    expect(field(row, 'Frequency')).toBe('')
    expect(field(row, 'Quantity')).toBe('')
  })
  it('keeps them when the same medicine is chosen again', async () => {
    const row = await openEditor([line()])
    await pick(row, 'augm', augmentin.label)
    await waitFor(() => expect(within(row).getByRole('combobox', { name: 'Medicine' })).toHaveProperty('value', augmentin.label))
    expect(field(row, 'Dose')).toBe('1 tablet 875/125 mg')
    expect(field(row, 'Frequency')).toBe('twice a day')
    expect(field(row, 'Quantity')).toBe('14')
  })
})

/** The editor of a new prescription on visit 5, with the server's answers; what it sent and what it saved. */
async function openNew(items: Item[], api: Record<string, Fixture>) {
  const onSaved = vi.fn()
  const view = await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={items} onSaved={onSaved} />, { me: user(['write prescription']), api })
  return { ...view, onSaved, rows: () => screen.getAllByTestId('rx-line') }
}

const allergy = { line: 0, key: 'allergy:penicillin', kind: 'allergy', tier: 'hard', blocking: false, requires_reason: true, allergy: 'Penicillin', substance: 'amoxicillin', severity: 'moderate' }
const refusal = (fields: Record<string, string[]>) => () => {
  const data = { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: fields }
  throw new Refusal(422, data)
}

describe('PrescriptionEditor', () => {
  it('saves the lines of a new prescription on the visit, the quantity as written', async () => {
    const saved = { id: 31, items: [line()], version: 1 } as unknown as Prescription
    const { sent, onSaved, rows } = await openNew([line()], { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] }, 'POST /appointments/5/prescriptions': saved })
    fireEvent.input(within(rows()[0]).getByLabelText('Instructions'), { target: { value: 'after food' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save and preview' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved))
    expect(sent.filter((r) => r.path === '/appointments/5/prescriptions')).toEqual([
      expect.objectContaining({ method: 'POST', body: expect.objectContaining({ items: [expect.objectContaining({ medicine_id: 1, quantity: '14', instructions: 'after food', overrides: [] })] }) }),
    ])
  })

  it("asks a reason on a line the safety check finds, and sends it with the finding's key", async () => {
    const { sent, rows } = await openNew([line()], { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'present', findings: [allergy] }, 'POST /appointments/5/prescriptions': { id: 31, items: [], version: 1 } })
    const reason = await within(rows()[0]).findByLabelText('Reason to prescribe anyway')
    fireEvent.input(reason, { target: { value: 'tolerated it last year' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save and preview' }))
    await waitFor(() => expect(sent.some((r) => r.path === '/appointments/5/prescriptions')).toBe(true))
    const body = sent.find((r) => r.path === '/appointments/5/prescriptions')!.body as { items: Item[] }
    expect(body.items[0]).toMatchObject({ override_reason: 'tolerated it last year', overrides: ['allergy:penicillin'] })
  })

  it("shows the server's refusal on the line's field it names", async () => {
    const { onSaved, rows } = await openNew([line()], { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] }, 'POST /appointments/5/prescriptions': refusal({ 'items.0.dose': ['Say the dose.'] }) })
    fireEvent.click(screen.getByRole('button', { name: 'Save and preview' }))
    expect(await within(rows()[0]).findByText('Say the dose.')).toBeTruthy()
    expect(onSaved).not.toHaveBeenCalled()
  })

  it("copies the visit's last prescription's lines", async () => {
    const previous = { id: 20, items: [{ ...line(), medicine_id: warfarin.id, medicine: warfarin.label, dose: '5 mg', frequency: 'once a day', quantity: '30' }], version: 1 }
    const { rows } = await openNew([{ ...emptyItem() }], { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] }, 'GET /appointments/5/previous-prescription': previous })
    fireEvent.click(screen.getByRole('button', { name: 'Copy last prescription' }))
    await waitFor(() => expect(within(rows()[0]).getByRole('combobox', { name: 'Medicine' })).toHaveProperty('value', warfarin.label))
    expect(field(rows()[0], 'Dose')).toBe('5 mg')
    expect(field(rows()[0], 'Frequency')).toBe('once a day')
  })
})
