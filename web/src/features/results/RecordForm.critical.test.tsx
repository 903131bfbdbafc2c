// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { LabOrder, TestResults } from './api/types'
import { RecordForm } from './RecordForm'

afterEach(cleanup)

// Whoever types a result sees the analyte's critical limits for the patient's age, whatever
// reference range applies (issue 52: a 7-year-old's potassium 7.0 is critical).
const bmp: TestResults = {
  code: 'BMP',
  kind: 'lab',
  label: 'Basic metabolic panel',
  loinc: '51990-0',
  turnaround_hours: 24,
  analytes: [
    {
      code: 'K',
      loinc: '2823-3',
      type: 'numeric',
      unit: 'mmol/L',
      decimals: 1,
      label: 'Potassium',
      units: [],
      ranges: [
        { sex: 'any', age_from_months: 12, age_to_months: 216, low: 3.4, high: 4.7 },
        { sex: 'any', age_from_months: 216, age_to_months: null, low: 3.5, high: 5.1 },
      ],
      critical: [
        { age_from_months: 0, age_to_months: 1, critical_low: 2.8, critical_high: 7.0, source: 'Kost 1991' },
        { age_from_months: 1, age_to_months: 216, critical_low: 2.8, critical_high: 6.5, source: 'Kost 1991' },
        { age_from_months: 216, age_to_months: null, critical_low: 3.0, critical_high: 6.0, source: 'CAP surveys' },
      ],
      delta_rules: [],
    },
  ],
}

const order = { id: 9, test: 'BMP', status: 'ordered', version: 1, results: [], ordered_by_name: 'Dr Binh' } as unknown as LabOrder

const yearsAgo = (years: number) => {
  const d = new Date()
  d.setFullYear(d.getFullYear() - years)
  d.setDate(d.getDate() - 10)
  return d.toISOString().slice(0, 10)
}

describe('RecordForm', () => {
  it.each([
    // patient, the critical limits shown
    ['a 7-year-old', { sex: 'male', birth_date: yearsAgo(7) }, 'Critical for this patient: ≤ 2.8; ≥ 6.5 mmol/L'],
    ['an adult', { sex: 'female', birth_date: yearsAgo(40) }, 'Critical for this patient: ≤ 3; ≥ 6 mmol/L'],
    ['a patient of unknown sex', { sex: 'unknown', birth_date: yearsAgo(40) }, 'Critical for this patient: ≤ 3; ≥ 6 mmol/L'],
  ])('shows %s the critical limits of their age', async (_who, patient, said) => {
    await renderScreen(<RecordForm order={order} patient={patient} />, { me: user(['record results']), api: { 'GET /lab-tests/BMP': bmp } })
    expect((await screen.findByTestId('patient-critical')).textContent).toBe(said)
  })

  // Issue 55 (minor): a value that withdrew critical alerts says so when saved.
  it('says when a recording withdrew critical alerts', async () => {
    await renderScreen(<RecordForm order={order} patient={{ sex: 'female', birth_date: yearsAgo(40) }} />, {
      me: user(['record results']),
      api: { 'GET /lab-tests/BMP': bmp, 'PUT /lab-orders/9/results': { order, alerts: 0, withdrawn: 1 } },
    })
    fireEvent.input(await screen.findByLabelText('Potassium', { exact: true }), { target: { value: '4.2' } })
    fireEvent.click(screen.getByTestId('save-final'))
    expect(await screen.findByText(/Critical alerts withdrawn by this change: 1/)).toBeTruthy()
  })
})
