import { describe, expect, it } from 'vitest'
import type { BookingSettings } from './api/booking'
import { breaksPattern, formPath, fromForm, toForm } from './rules'

const week = Array.from({ length: 7 }, (_, i) => (i < 5 ? { open: '08:00', close: '12:00', breaks: [{ from: '10:00', to: '10:15' }] } : { open: '', close: '', breaks: [] }))
const stored: BookingSettings = {
  enabled: true, auto_book: false, ahead_days: 30, notice_minutes: 120, holidays: [{ from: '2026-12-31', to: '2027-01-01', note: 'New Year' }], version: 2,
  doctors: [{ doctor_id: 9, enabled: true, specialty: 'Paediatrics', offers: [{ type: 'follow-up', slot_minutes: 15 }], week, days_off: [] }],
}

describe('the online booking form', () => {
  it('lists every doctor, the ones not set up off, and saves only those set up', () => {
    const v = toForm(stored, [{ id: 3, name: 'Dr A' }, { id: 9, name: 'Dr B' }])
    expect(v.doctors.map((d) => [d.doctor_id, d.enabled, d.new_minutes, d.follow_up_minutes])).toEqual([[3, false, 0, 0], [9, true, 0, 15]])
    expect(v.doctors[1]!.week[0]).toEqual({ open: '08:00', close: '12:00', breaks: '10:00-10:15' })
    const back = fromForm(v)
    expect(back.doctors).toEqual(stored.doctors)
    expect(back.holidays).toEqual(stored.holidays)
  })
  it('reads breaks written by hand', () => {
    const v = toForm(stored, [{ id: 9, name: 'Dr B' }])
    v.doctors[0]!.week[1]!.breaks = ' 09:00 - 09:10 ,11:00-11:30'
    expect(fromForm(v).doctors[0]!.week[1]!.breaks).toEqual([{ from: '09:00', to: '09:10' }, { from: '11:00', to: '11:30' }])
    expect(breaksPattern.test('09:00-09:10, 11:00-11:30')).toBe(true)
    expect(breaksPattern.test('')).toBe(true)
    expect(breaksPattern.test('noon')).toBe(false)
  })
  it('puts a server error on the field it names', () => {
    const v = toForm(stored, [{ id: 3, name: 'Dr A' }, { id: 9, name: 'Dr B' }])
    expect(formPath('doctors.0.week.2', v)).toEqual(['doctors', 1, 'week', 2, 'open'])
    expect(formPath('doctors.0.offers.0.slot_minutes', v)).toEqual(['doctors', 1, 'follow_up_minutes'])
    expect(formPath('ahead_days', v)).toEqual(['ahead_days'])
  })
})
