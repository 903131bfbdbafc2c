import type { Dayjs } from 'dayjs'

/** A quarter of an hour from now, rounded up to the next 5 minutes: never in the past (the hour moves with the minute). */
export function soonestSlot(now: Dayjs): Dayjs {
  const t = now.add(15, 'minute').second(0).millisecond(0)
  return t.add((5 - (t.minute() % 5)) % 5, 'minute')
}
