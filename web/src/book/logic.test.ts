import { describe, expect, it } from 'vitest'
import { addDays, byDay, cleanCode, fieldMessages } from './logic'
import { LANGS, TEXTS } from './texts'

describe('the booking page’s logic', () => {
  it('groups slots by the clinic’s day, one per time for any doctor', () => {
    const slots = [
      { doctor_id: 2, starts_at: '2026-12-07T02:00:00Z', duration_minutes: 30, day: '2026-12-07', time: '09:00' },
      { doctor_id: 1, starts_at: '2026-12-07T02:00:00Z', duration_minutes: 30, day: '2026-12-07', time: '09:00' },
      { doctor_id: 1, starts_at: '2026-12-07T18:00:00Z', duration_minutes: 30, day: '2026-12-08', time: '01:00' }, // the clinic's day, not UTC's
    ]
    const days = byDay(slots)
    expect([...days.keys()]).toEqual(['2026-12-07', '2026-12-08'])
    expect(days.get('2026-12-07')).toEqual([slots[1]])
  })
  it('counts days across months', () => {
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08')
  })
  it('ties the server’s field messages to the form’s fields', () => {
    expect(fieldMessages({ error: 'x', errors: { birth_date: ['Ngày sinh không thể ở tương lai.'], days: ['y'] } })).toEqual({
      fields: { birth_date: 'Ngày sinh không thể ở tương lai.' },
      other: 'y',
    })
    expect(fieldMessages({ error: 'Giờ này không còn trống.' })).toEqual({ fields: {}, other: 'Giờ này không còn trống.' })
  })
  it('keeps six digits of a code', () => {
    expect(cleanCode(' 12 34-56 7')).toBe('123456')
  })
  it('has every text in every language', () => {
    const keys = Object.keys(TEXTS.en).sort()
    for (const l of LANGS) {
      expect(Object.keys(TEXTS[l.code]).sort()).toEqual(keys)
      expect(Object.keys(TEXTS[l.code].types).sort()).toEqual(['follow-up', 'new'])
    }
  })
})
