// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import i18n from '../../../lib/i18n'
import { renderScreen, user } from '../../../test/render'
import { emptyItem, type Item } from '../api/types'
import { PrescriptionEditor } from './PrescriptionEditor'

afterEach(cleanup)

const line = (medicine: string): Item => ({ ...emptyItem(), medicine, dose: '1 tablet' })

// Issue 58, item 2: typing in a line's field draws that field alone, and adding a line draws
// the new one, not every line again (the interaction took 368 ms at 4× on the library's form).
describe('PrescriptionLine', () => {
  it('is not drawn again when a key is typed in a field, nor when another line is added', async () => {
    await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={[line('Amlodipine 5 mg'), line('Losartan 50 mg'), line('Metformin 500 mg')]} onSaved={() => {}} />, {
      me: user(['write prescription']),
      api: { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] } },
    })
    await screen.findByText('Medicine 3')
    const rows = () => screen.getAllByTestId('rx-line')
    await new Promise((r) => setTimeout(r, 50))
    // A line drawn says its title ("Medicine 2"): each title asked of the translations is a line drawn.
    const t = vi.spyOn(i18n, 't')
    const drawn = () => t.mock.calls.filter(([key]) => key === 'rx.line').length
    fireEvent.input(within(rows()[1]).getByLabelText('Dose'), { target: { value: '2 tablets' } })
    expect((within(rows()[1]).getByLabelText('Dose') as HTMLInputElement).value).toBe('2 tablets')
    expect(drawn()).toBe(0)
    fireEvent.click(screen.getByRole('button', { name: 'Add medicine' }))
    expect(rows()).toHaveLength(4)
    expect(drawn()).toBe(1)
    t.mockRestore()
  })

  it('takes a whole number of refills from 0 to 12, stepped by the arrows', async () => {
    await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={[line('Amlodipine 5 mg')]} onSaved={() => {}} />, {
      me: user(['write prescription']),
      api: { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] } },
    })
    const refills = screen.getByRole('spinbutton', { name: 'Refills' }) as HTMLInputElement
    fireEvent.keyDown(refills, { key: 'ArrowUp' })
    expect(refills.value).toBe('1')
    fireEvent.input(refills, { target: { value: '40' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('12')
    fireEvent.input(refills, { target: { value: '2.6' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('3')
    fireEvent.input(refills, { target: { value: 'x' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('3')
    // Enter sends the form: the count is brought into range first, so the one sent is the one shown (a pharmacist's review).
    for (const [typed, kept] of [['13', '12'], ['-1', '0'], ['12.5', '12']]) {
      fireEvent.input(refills, { target: { value: typed } })
      fireEvent.keyDown(refills, { key: 'Enter' })
      expect(refills.value).toBe(kept)
    }
  })

  it("sends the form on Enter in the medicine's box with its list closed, never with it open", async () => {
    const onSaved = vi.fn()
    const medicines = [{ id: 1, label: 'Amlodipine 5 mg tablet', unit: 'tablet', unit_label: 'tablet' }]
    const { sent } = await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={[line('Amlodipine 5 mg')]} onSaved={onSaved} />, {
      me: user(['write prescription']),
      api: { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] }, 'GET /medicines': { data: medicines }, 'POST /appointments/5/prescriptions': { id: 31, items: [], version: 1 } },
    })
    const box = screen.getByRole('combobox', { name: 'Medicine' })
    fireEvent.input(box, { target: { value: 'amlo' } })
    await screen.findByRole('option', { name: 'Amlodipine 5 mg tablet' }, { timeout: 2000 })
    fireEvent.keyDown(box, { key: 'Enter' })
    await new Promise((r) => setTimeout(r, 50))
    expect(sent.some((r) => r.path === '/appointments/5/prescriptions')).toBe(false)
    fireEvent.keyDown(box, { key: 'Escape' })
    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
  })
})
