// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { Bill } from './api/types'
import PrintBillPage from './PrintBillPage'

afterEach(cleanup)

// A final bill whose doctor has drawn no signature yet.
const bill = {
  id: 1, number: 'B-0001', status: 'final', appointment_id: 3, currency: 'VND', minor_units: 0, version: 2, preview: false,
  patient: { id: 5, mrn: '000005', name: 'Trần Thị Lan' },
  doctor: 'Dr Minh', doctor_id: 9,
  doctor_details: { name: 'Dr Minh', has_signature: false, signature_url: '', licences: [], specialisations: [] },
  lines: [{ id: 1, code: 'CONS-NEW', description: 'New visit', category: 'consultation', quantity: 1, unit_price: 200000, amount: 200000,
    discount: 0, discount_kind: '', discount_reason: '', discount_value: 0, service_id: 1, added_at: '2026-11-28T09:00:00Z', added_by: 'desk' }],
  payments: [], subtotal: 200000, discount: 0, discount_kind: '', discount_reason: '', discount_value: 0, total: 200000, credited: 0, paid: 0, balance: 200000,
  notes: '', created_at: '2026-11-28T09:00:00Z', finalised_at: '2026-11-28T09:10:00Z', finalised_by: 'desk',
  replaced_by_id: null, replaces_id: null, void_reason: '', voided_at: null, voided_by: '',
} as unknown as Bill

const api = { 'GET /bills/1': bill, 'GET /settings/clinic': { name: 'Phòng khám An Bình', address: '', phone: '' } }
const at = { route: '/bills/:id/print/:doc', at: '/bills/1/print/statement' }

describe('PrintBillPage', () => {
  it('tells the doctor, who can draw one, that the statement prints without a signature', async () => {
    await renderScreen(<PrintBillPage />, { me: user(['write prescription', 'issue documents', 'record charges'], ['doctor']), api, ...at })
    expect(await screen.findByText(/The doctor has drawn no signature yet/)).toBeTruthy()
  })

  it('does not tell the receptionist, who can do nothing about it', async () => {
    await renderScreen(<PrintBillPage />, { me: user(['record charges', 'record payment'], ['receptionist']), api, ...at })
    expect(await screen.findByTestId('statement-sheet')).toBeTruthy()
    expect(screen.queryByText(/The doctor has drawn no signature yet/)).toBeNull()
  })
})
