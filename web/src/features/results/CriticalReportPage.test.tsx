// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import CriticalReportPage from './CriticalReportPage'

afterEach(cleanup)

const base = {
  order_id: 2,
  appointment_id: 3,
  patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '' },
  doctor_id: 5,
  doctor_name: 'Dr Binh',
  result: { label: 'Potassium', value: '7.2', unit: 'mmol/L', flag: 'HH', type: 'numeric', range: { low: null, high: null, critical_low: null, critical_high: null, source: 'none' } },
  test_label: 'BMP',
  raised_at: '2026-11-20T08:00:00Z',
  escalated_at: null,
  escalated_lead_at: null,
  acknowledged_by: null,
  acknowledged_by_name: '',
  action: '',
  read_back: '',
  not_reached_at: null,
  not_reached_by_name: '',
  not_reached_note: '',
  not_reached_count: 0,
  minutes_to_acknowledge: null,
  withdrawn_at: null,
  withdrawn_by: null,
  withdrawn_by_name: '',
  withdrawn_reason: '',
  emails: [],
}

// Issue 54 (ISO 15189:2022 §7.4.1.8): an alert closed because its result was withdrawn as
// entered in error is not an acknowledgement: the report says withdrawn, when and by whom,
// strikes the value, and shows no epoch date or untranslated key.
describe('CriticalReportPage', () => {
  it('reports a withdrawn alert as withdrawn, its value struck', async () => {
    const withdrawn = {
      ...base,
      id: 1,
      open: false,
      acknowledged_at: null,
      contact: '',
      received_by: '',
      withdrawn_at: '2026-11-20T09:30:00Z',
      withdrawn_by: 6,
      withdrawn_by_name: 'Nurse Lan',
      withdrawn_reason: 'haemolysed',
      withdrawn_category: 'specimen',
      withdrawn_by_recipient: true,
      withdrawal_seen_at: '2026-11-20T10:00:00Z',
      withdrawal_seen_by_name: 'Dr Binh',
      withdrawal_followup: 'patient_contacted',
      withdrawal_note: 'Repeat tomorrow',
      // Issue 55, J4: the withdrawal's own e-mails are shown, one that found no address too.
      emails: [{ level: 0, withdrawal: true, user_id: 6, name: 'Dr Lead', status: 'no_address', attempts: 0, last_error: '', sent_at: null }],
    }
    const acknowledged = { ...base, id: 2, open: false, acknowledged_at: '2026-11-20T08:10:00Z', acknowledged_by_name: 'Dr Binh', contact: 'phone', received_by: 'system', minutes_to_acknowledge: 10 }
    await renderScreen(<CriticalReportPage />, { me: user(['review results']), api: { 'GET /results/alerts/report': { data: [withdrawn, acknowledged] } } })
    const mark = await screen.findByTestId('alert-withdrawn')
    expect(mark.textContent).toMatch(/^Withdrawn · .+ · Nurse Lan Specimen problem \(haemolysed, clotted, contaminated\): haemolysed/)
    // Issue 55 (M2, M4): how the withdrawal was followed up, and that its own doctor made it.
    expect(screen.getByTestId('withdrawal-followup').textContent).toMatch(/^Follow-up: Patient contacted and told the value was wrong · Dr Binh · .+ — Repeat tomorrow$/)
    expect(screen.getByTestId('withdrawn-by-recipient')).toBeTruthy()
    const page = document.body.textContent ?? ''
    expect(page).not.toContain('1970')
    expect(page).not.toContain('results.')
    expect(page).toContain('By phone')
    expect(page).toMatch(/withdrawal notice · Dr Lead: /)
    const struck = [...document.querySelectorAll('del')].map((d) => d.textContent)
    expect(struck).toHaveLength(1)
    expect(struck[0]).toContain('7.2')
  })
})
