import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { firstFreeSlot, soonestSlot } from './soonestSlot'

describe('soonestSlot', () => {
  it.each([
    ['2026-11-26T10:58:30', '2026-11-26T11:15'],
    ['2026-11-26T10:45:00', '2026-11-26T11:00'],
    ['2026-11-26T10:47:10', '2026-11-26T11:05'],
    ['2026-11-26T23:50:00', '2026-11-27T00:05'],
  ])('%s → %s', (now, want) => {
    expect(soonestSlot(dayjs(now)).format('YYYY-MM-DDTHH:mm')).toBe(want)
  })
})

// The clinic manager's run, 2026-11-29: the dialog proposed 09:20, a time taken by another
// appointment, and the booking was refused.
describe('firstFreeSlot', () => {
  const at = (clock: string) => dayjs(`2026-11-30T${clock}:00`)
  const taken = (clock: string, minutes: number, status = 'booked') => ({ starts_at: at(clock).toISOString(), duration_minutes: minutes, status })
  it.each([
    ['a free time is kept', '09:20', 15, [taken('09:00', 15)], '09:20'],
    ['a taken time moves past the appointment', '09:20', 15, [taken('09:20', 20)], '09:40'],
    ['an overlap from before moves too', '09:20', 15, [taken('09:10', 20)], '09:30'],
    ['a gap too short is passed over', '09:20', 15, [taken('09:20', 10), taken('09:40', 15)], '09:55'],
    ['a cancelled or missed time is free', '09:20', 15, [taken('09:20', 20, 'cancelled'), taken('09:20', 20, 'no-show')], '09:20'],
  ])('%s', (_, from, minutes, list, want) => {
    expect(firstFreeSlot(at(from), minutes, list).format('HH:mm')).toBe(want)
  })
})
