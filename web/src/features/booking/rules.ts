import type { BookingDoctor, BookingSettings } from './api/booking'

/** A weekday as the form edits it: hours, and the breaks as "12:00-13:00, 15:00-15:15". */
export interface FormDay {
  open: string
  close: string
  breaks: string
}

/** A doctor as the form edits it: each visit type's slot, 0 for not offered. */
export interface FormDoctor {
  doctor_id: number
  name: string
  enabled: boolean
  specialty: string
  new_minutes: number
  follow_up_minutes: number
  week: FormDay[]
  days_off: { from: string; to: string; note?: string }[]
}

export interface FormValues {
  enabled: boolean
  auto_book: boolean
  ahead_days: number
  notice_minutes: number
  holidays: { from: string; to: string; note?: string }[]
  doctors: FormDoctor[]
}

export const breaksPattern = /^\s*$|^\s*\d\d:\d\d\s*-\s*\d\d:\d\d\s*(,\s*\d\d:\d\d\s*-\s*\d\d:\d\d\s*)*$/

const closedWeek = (): FormDay[] => Array.from({ length: 7 }, () => ({ open: '', close: '', breaks: '' }))

/** The stored rules as the form shows them: every doctor listed, those not yet set up off. */
export function toForm(s: BookingSettings, doctors: { id: number; name: string }[]): FormValues {
  const rows = doctors.map((d): FormDoctor => {
    const r = s.doctors.find((x) => x.doctor_id === d.id)
    const minutes = (type: string) => r?.offers.find((o) => o.type === type)?.slot_minutes ?? 0
    return {
      doctor_id: d.id,
      name: d.name,
      enabled: r?.enabled ?? false,
      specialty: r?.specialty ?? '',
      new_minutes: minutes('new'),
      follow_up_minutes: minutes('follow-up'),
      week: r ? r.week.map((w) => ({ open: w.open, close: w.close, breaks: w.breaks.map((b) => `${b.from}-${b.to}`).join(', ') })) : closedWeek(),
      days_off: r?.days_off ?? [],
    }
  })
  return { enabled: s.enabled, auto_book: s.auto_book, ahead_days: s.ahead_days, notice_minutes: s.notice_minutes, holidays: s.holidays, doctors: rows }
}

/** The form's values as the server takes them. */
export function fromForm(v: FormValues): Omit<BookingSettings, 'version'> {
  const doctors = v.doctors
    .filter((d) => d.enabled || d.new_minutes || d.follow_up_minutes || d.week.some((w) => w.open))
    .map(
      (d): BookingDoctor => ({
        doctor_id: d.doctor_id,
        enabled: d.enabled,
        specialty: d.specialty ?? '',
        offers: [
          ...(d.new_minutes ? [{ type: 'new' as const, slot_minutes: d.new_minutes }] : []),
          ...(d.follow_up_minutes ? [{ type: 'follow-up' as const, slot_minutes: d.follow_up_minutes }] : []),
        ],
        week: d.week.map((w) => ({
          open: (w.open ?? '').trim(),
          close: (w.close ?? '').trim(),
          breaks: (w.breaks ?? '')
            .split(',')
            .map((b) => b.trim())
            .filter(Boolean)
            .map((b) => {
              const [from = '', to = ''] = b.split('-').map((x) => x.trim())
              return { from, to }
            }),
        })),
        days_off: (d.days_off ?? []).map((x) => ({ from: x.from, to: x.to || x.from, note: x.note ?? '' })),
      }),
    )
  return {
    enabled: v.enabled,
    auto_book: v.auto_book,
    ahead_days: v.ahead_days,
    notice_minutes: v.notice_minutes,
    holidays: (v.holidays ?? []).map((x) => ({ from: x.from, to: x.to || x.from, note: x.note ?? '' })),
    doctors,
  }
}

/**
 * The form field a server error names: "doctors.0.week.2" is the day's opening, an offer's
 * slot is the type's minutes field; indexes are of the saved list, so they are mapped back.
 */
export function formPath(field: string, v: FormValues): (string | number)[] {
  const parts = field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))
  if (parts[0] !== 'doctors' || typeof parts[1] !== 'number') return parts
  const saved = fromForm(v).doctors[parts[1]]
  const row = v.doctors.findIndex((d) => d.doctor_id === saved?.doctor_id)
  const rest = parts.slice(2)
  if (rest[0] === 'week' && rest.length === 2) return ['doctors', row, 'week', rest[1]!, 'open']
  if (rest[0] === 'offers') {
    const type = saved?.offers[rest[1] as number]?.type
    return ['doctors', row, type === 'follow-up' ? 'follow_up_minutes' : 'new_minutes']
  }
  return ['doctors', row, ...rest]
}
