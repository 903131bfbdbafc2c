// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import { emptyItem, type Item } from '../api/types'
import { PrescriptionEditor } from './PrescriptionEditor'

// Each line's findings are drawn by LineFindings: counting its calls counts the lines drawn.
const drawn = vi.hoisted(() => ({ lines: 0 }))
vi.mock('../../../components/MedicineSafety', async (original) => {
  const actual = await original<typeof import('../../../components/MedicineSafety')>()
  return {
    ...actual,
    LineFindings: (props: Parameters<typeof actual.LineFindings>[0]) => {
      drawn.lines++
      return actual.LineFindings(props)
    },
  }
})

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
    drawn.lines = 0
    fireEvent.change(within(rows()[1]).getByLabelText('Dose'), { target: { value: '2 tablets' } })
    expect((within(rows()[1]).getByLabelText('Dose') as HTMLInputElement).value).toBe('2 tablets')
    expect(drawn.lines).toBe(0)
    fireEvent.click(screen.getByRole('button', { name: 'Add medicine' }))
    expect(rows()).toHaveLength(4)
    expect(drawn.lines).toBe(1)
  })

  it('takes a whole number of refills from 0 to 12, stepped by the arrows', async () => {
    await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={[line('Amlodipine 5 mg')]} onSaved={() => {}} />, {
      me: user(['write prescription']),
      api: { 'POST /prescriptions/check': { patient_id: 9, allergies: [], allergy_status: 'none', findings: [] } },
    })
    const refills = screen.getByRole('spinbutton', { name: 'Refills' }) as HTMLInputElement
    fireEvent.keyDown(refills, { key: 'ArrowUp' })
    expect(refills.value).toBe('1')
    fireEvent.change(refills, { target: { value: '40' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('12')
    fireEvent.change(refills, { target: { value: '2.6' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('3')
    fireEvent.change(refills, { target: { value: 'x' } })
    fireEvent.blur(refills)
    expect(refills.value).toBe('3')
  })
})
