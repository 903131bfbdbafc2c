// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import i18n, { setLanguage } from '../../../lib/i18n'
import { axeViolations } from '../../../test/axe'
import { renderScreen, user } from '../../../test/render'
import { emptyItem, type Item } from '../api/types'
import { DoseByWeight, type LineDosing } from './DoseByWeight'
import { createEditorStore } from './editorStore'
import { PrescriptionEditor } from './PrescriptionEditor'

afterEach(async () => {
  cleanup()
  await i18n.changeLanguage('en')
})

const paracetamol = {
  ingredients: 'paracetamol', indication: 'pain_fever', min_age_months: 1, min_weight_kg: 0, max_weight_kg: 0, mg_per_kg: 15, max_mg_per_kg_dose: 15,
  doses_per_day: 4, max_dose_mg: 1000, max_day_mg_per_kg: 60, max_day_mg: 4000, confirmed: 'yes', source: 'NPS MedicineWise, paracetamol dosing for children',
}
const amoxicillin = [
  { ...paracetamol, ingredients: 'amoxicillin', indication: 'infection', mg_per_kg: 25, max_mg_per_kg_dose: 30, doses_per_day: 3, max_day_mg_per_kg: 90, max_day_mg: 3000, confirmed: 'no', source: 'WHO Pocket Book 2013' },
  { ...paracetamol, ingredients: 'amoxicillin', indication: 'pneumonia', mg_per_kg: 40, max_mg_per_kg_dose: 45, doses_per_day: 2, max_day_mg_per_kg: 90, max_day_mg: 3000, confirmed: 'partly', source: 'WHO 2014' },
]
const syrup: Item = { ...emptyItem(), medicine_id: 3, medicine: 'Paracetamol 120 mg/5 mL syrup', unit: 'mL' }

function answer(weight: unknown, rows: unknown[] = [paracetamol], strength: unknown = { mg: 120, per_ml: 5 }) {
  return { patient_id: 9, allergies: [], allergy_status: 'none', findings: [], weight, doses: [{ line: 0, strength, rows }] }
}
const weighed = { kg: 12.4, on: '2026-11-03', age_days: 28, stale: false, max_age_days: 30 }

async function open(check: unknown, items: Item[] = [syrup]) {
  const r = await renderScreen(<PrescriptionEditor appointmentId={5} initialItems={items} onSaved={() => {}} />, {
    me: user(['write prescription']),
    api: { 'POST /prescriptions/check': check },
  })
  const box = await screen.findByRole('checkbox', { name: 'Dose by weight' })
  return { ...r, box }
}

describe('DoseByWeight', () => {
  it('works the dose out from the latest weight, fills the dose field, and sends the numbers to the check', async () => {
    const { box, sent, container } = await open(answer(weighed))
    fireEvent.click(box)
    const panel = await screen.findByRole('region', { name: 'Dose by weight, medicine 1' })
    expect(panel.textContent).toContain('Weight 12.4 kg on 2026-11-03.')
    expect((within(panel).getByLabelText('Dose, mg/kg') as HTMLInputElement).value).toBe('15')
    // 15 mg/kg × 12.4 kg = 186 mg = 7.75 mL: 7.7 mL (7.8 would pass the most a dose, 186 mg)
    expect(within(panel).getByTestId('dose-by-weight').textContent).toContain('Dose 184.8 mg = 7.7 mL.')
    expect(panel.textContent).toContain('Most for 12.4 kg: 186 mg a dose, 744 mg a day')
    expect(panel.textContent).toContain('Source: NPS MedicineWise')
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('7.7 mL')
    // the doses a day fill the frequency, as the check reads what prints
    expect((screen.getByLabelText('Frequency') as HTMLInputElement).value).toBe('4 times a day')
    fireEvent.input(within(panel).getByLabelText('Dose, mg/kg'), { target: { value: '10' } })
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('5.2 mL')
    // the check runs again on the numbers by weight
    await waitFor(() => expect(sent.some((s) => JSON.stringify(s.body).includes('"mg_per_kg":10'))).toBe(true))
    // above the most for the weight: said at once (the check asks for the reason)
    fireEvent.input(within(panel).getByLabelText('Dose, mg/kg'), { target: { value: '25' } })
    expect(panel.textContent).toContain('Above the most one dose may hold for this weight (186 mg)')
    fireEvent.change(within(panel).getByLabelText('Doses a day'), { target: { value: '3' } })
    expect((screen.getByLabelText('Frequency') as HTMLInputElement).value).toBe('3 times a day')
    expect(await axeViolations(container)).toEqual([])
    // unticked: the numbers go, the dose stays as written; the box keeps the keyboard's focus
    expect(screen.getByRole('checkbox', { name: 'Dose by weight' })).toBe(box)
    fireEvent.click(box)
    expect(screen.queryByRole('region', { name: 'Dose by weight, medicine 1' })).toBeNull()
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('13 mL')
  })

  it('drops the numbers by weight when the dose is typed by hand, so a stale box is never sent', async () => {
    const { box, sent } = await open(answer(weighed))
    fireEvent.click(box)
    await screen.findByRole('region', { name: 'Dose by weight, medicine 1' })
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('7.7 mL')
    fireEvent.input(screen.getByLabelText('Dose'), { target: { value: '12.5 mL' } })
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('12.5 mL')
    expect(screen.queryByRole('region', { name: 'Dose by weight, medicine 1' })).toBeNull()
    expect((screen.getByRole('checkbox', { name: 'Dose by weight' }) as HTMLInputElement).checked).toBe(false)
    // the check now goes with the dose typed, without the numbers by weight
    await waitFor(() => expect(JSON.stringify(sent[sent.length - 1].body)).toContain('"dose":"12.5 mL"'))
    expect(JSON.stringify(sent[sent.length - 1].body)).not.toContain('by_weight')
  })

  it('checks a dose as it is typed, once the typing pauses, and shows the findings before saving', async () => {
    const over = {
      ...answer(weighed),
      findings: [{ line: 0, key: 'dose:max:300:12.4', kind: 'dose_above_max', tier: 'high', blocking: false, requires_reason: true, overridden: false, source: 'NPS', dosing: { dose_mg: 300, weight_kg: 12.4, max_dose_mg: 186 } }],
    }
    const { sent } = await open((req: { body: { items: { dose?: string }[] } }) => (req.body.items[0].dose === '12.5 mL' ? over : answer(weighed)))
    const before = sent.length
    fireEvent.input(screen.getByLabelText('Dose'), { target: { value: '12' } })
    fireEvent.input(screen.getByLabelText('Dose'), { target: { value: '12.5 mL' } })
    fireEvent.input(screen.getByLabelText('Frequency'), { target: { value: '3 times a day' } })
    expect(await screen.findByText('The dose (300 mg) is above the most one dose may hold for 12.4 kg (186 mg).')).toBeTruthy()
    // the typing sent once, when it paused: the dose and the frequency as written
    const typed = sent.slice(before).map((r) => JSON.stringify(r.body))
    expect(typed.some((b) => b.includes('"dose":"12"'))).toBe(false)
    expect(typed.at(-1)).toContain('"dose":"12.5 mL","frequency":"3 times a day"')
  })

  it('says when the weight is too old or missing', async () => {
    const { box } = await open(answer({ ...weighed, age_days: 45, stale: true }))
    fireEvent.click(box)
    expect(await screen.findByText(/This weight is 45 days old, older than the clinic's limit of 30 days/)).toBeTruthy()
    cleanup()
    const again = await open(answer(null))
    fireEvent.click(again.box)
    expect(await screen.findByText('No weight is recorded for this patient: weigh the child to dose by weight.')).toBeTruthy()
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('')
  })

  it('offers each indication of the table, with the numbers not yet confirmed said', async () => {
    const { box } = await open(answer(weighed, amoxicillin, { mg: 250, per_ml: 5 }), [{ ...syrup, medicine: 'Amoxicillin 250 mg/5 mL suspension' }])
    fireEvent.click(box)
    const panel = await screen.findByRole('region', { name: 'Dose by weight, medicine 1' })
    expect(panel.textContent).toContain('not yet confirmed against the source')
    // 25 mg/kg × 12.4 = 310 mg = 6.2 mL
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('6.2 mL')
    fireEvent.change(within(panel).getByLabelText('Indication'), { target: { value: 'pneumonia' } })
    // 40 mg/kg × 12.4 = 496 mg = 9.92 mL → 9.9 mL
    expect((screen.getByLabelText('Dose') as HTMLInputElement).value).toBe('9.9 mL')
    expect((within(panel).getByLabelText('Doses a day') as HTMLSelectElement).value).toBe('2')
  })

  it('speaks Russian, units and decimals too', async () => {
    const store = createEditorStore([syrup], '')
    const key = store.get().lines[0].key
    const dosing = { doses: answer(weighed).doses[0], weight: weighed } as LineDosing
    await renderScreen(<DoseByWeight store={store} lineKey={key} index={0} dosing={dosing} />, { me: user(['write prescription']), api: {} })
    await act(() => setLanguage('ru'))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Доза по массе тела' }))
    const panel = await screen.findByRole('region', { name: 'Доза по массе тела, препарат 1' })
    expect(panel.textContent).toContain('Масса тела 12,4 кг на 03.11.2026.')
    expect(within(panel).getByTestId('dose-by-weight').textContent).toContain('Разовая доза 184,8 мг = 7,7 мл.')
    expect(store.get().lines[0].item.dose).toBe('7,7 мл')
    expect(store.get().lines[0].item.by_weight).toMatchObject({ mg_per_kg: 15, dose_mg: 184.8, doses_per_day: 4 })
    expect(store.get().lines[0].item.frequency).toBe('4 раза в день')
    fireEvent.input(within(panel).getByLabelText('Доза, мг/кг'), { target: { value: '12,5' } })
    // 12.5 × 12.4 = 155 mg = 6.46 mL → 6.5 mL
    expect(store.get().lines[0].item.dose).toBe('6,5 мл')
  })
})
