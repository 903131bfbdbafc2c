// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import type { Item, Medicine } from '../api/types'
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
  fireEvent.change(input, { target: { value: typed } })
  const option = await screen.findByText(label, { selector: '.ant-select-item-option-content' }, { timeout: 2000 })
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
