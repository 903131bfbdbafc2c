// A critical result waiting since raisedAt, as the server lists it (the banner's and the dialog's tests).
import type { CriticalAlert } from './api/types'

export const alert = (raisedAt: Date) =>
  ({
    id: 1,
    order_id: 2,
    appointment_id: 3,
    patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '' },
    doctor_id: 5,
    doctor_name: 'Dr Binh',
    result: { label: 'Potassium', value: '6.8', unit: 'mmol/L', flag: 'HH', type: 'numeric', range: { low: null, high: null, critical_low: null, critical_high: null, source: 'none' } },
    test_label: 'BMP',
    raised_at: raisedAt.toISOString(),
    escalated_at: null,
    escalated_lead_at: null,
    open: true,
    not_reached_at: null,
    not_reached_by_name: '',
    not_reached_count: 0,
    emails: [],
  }) as unknown as CriticalAlert
