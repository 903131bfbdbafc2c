import type { Dayjs } from 'dayjs'

/** A quarter of an hour from now, rounded up to the next 5 minutes: never in the past (the hour moves with the minute). */
export function soonestSlot(now: Dayjs): Dayjs {
  const t = now.add(15, 'minute').second(0).millisecond(0)
  return t.add((5 - (t.minute() % 5)) % 5, 'minute')
}

/** An appointment's time that a new booking must not overlap. */
export interface Taken {
  starts_at: string
  duration_minutes: number
  status: string
}

/**
 * The first time at or after from, on from's day and in steps of 5 minutes, when a booking of
 * minutes overlaps none of taken (cancelled and no-show times are free); from itself when the
 * day has none left, for the server to say so.
 */
export function firstFreeSlot(from: Dayjs, minutes: number, taken: Taken[]): Dayjs {
  const busy = taken
    .filter((a) => a.status !== 'cancelled' && a.status !== 'no-show')
    .map((a) => {
      const start = new Date(a.starts_at).getTime()
      return [start, start + a.duration_minutes * 60_000] as const
    })
  for (let t = from; t.isSame(from, 'day'); t = t.add(5, 'minute')) {
    const start = t.valueOf()
    const end = start + minutes * 60_000
    if (!busy.some(([s, e]) => start < e && s < end)) return t
  }
  return from
}
