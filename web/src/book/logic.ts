/** The booking page's logic, apart from its rendering (tested on its own). */

export interface Slot {
  doctor_id: number
  starts_at: string
  duration_minutes: number
  /** The start on the clinic's calendar and clock (the server's, whatever the phone's zone). */
  day: string
  time: string
}

/**
 * The slots by the clinic's day, in order; for "any doctor" one slot per time (the first
 * doctor free then), so that a time is offered once.
 */
export function byDay(slots: Slot[]): Map<string, Slot[]> {
  const out = new Map<string, Slot[]>()
  const seen = new Set<string>()
  for (const s of [...slots].sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.doctor_id - b.doctor_id)) {
    if (seen.has(s.starts_at)) continue
    seen.add(s.starts_at)
    const list = out.get(s.day) ?? []
    list.push(s)
    out.set(s.day, list)
  }
  return out
}

/** YYYY-MM-DD plus n days. */
export function addDays(iso: string, n: number): string {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(Date.UTC(y!, m! - 1, d! + n)).toISOString().slice(0, 10)
}

/** The server's error body. */
export interface ApiError {
  error?: string
  code?: string
  errors?: Record<string, string[]>
}

/** Field messages the form shows, by its own field names; other messages go to the top. */
export function fieldMessages(e: ApiError): { fields: Record<string, string>; other?: string } {
  const fields: Record<string, string> = {}
  const known = ['first_name', 'last_name', 'birth_date', 'channel', 'address']
  let other: string | undefined
  for (const [k, msgs] of Object.entries(e.errors ?? {})) {
    if (known.includes(k) && msgs[0]) fields[k] = msgs[0]
    else if (msgs[0]) other = msgs[0]
  }
  if (Object.keys(fields).length === 0 && !other) other = e.error
  return { fields, other }
}

/** Digits only, at most six: what a code field keeps of what was typed or pasted. */
export function cleanCode(s: string): string {
  return s.replace(/\D/g, '').slice(0, 6)
}
