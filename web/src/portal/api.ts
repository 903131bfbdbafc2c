/** The portal's calls: same-origin JSON with the portal's own CSRF token echoed (ADR 44). */

export interface PortalRecord {
  id: number
  first_name: string
  last_name: string
  guardian: boolean
}

export interface PortalSession {
  signed_in: boolean
  clinic: string
  records: PortalRecord[]
  idle_minutes: number
}

export interface Visit {
  id: number
  starts_at: string
  date: string
  time: string
  duration_minutes: number
  doctor: string
  status: string
  confirmed: boolean
  can_cancel: boolean
  /** Cancellable, and the clinic publishes the doctor's times of its type online. */
  can_move: boolean
  version: number
}

/** A live session of the patient's own record (ASVS 3.3.4). */
export interface SessionView {
  id: string
  via: 'code' | 'access'
  address: string
  created_at: string
  last_seen_at: string
  current: boolean
}

/** A free time a visit may move to: its start, and its day and time on the clinic's clock. */
export interface FreeTime {
  starts_at: string
  day: string
  time: string
}

export interface Visits {
  upcoming: Visit[]
  past: Visit[]
  cancel_hours: number
}

/**
 * A payment or a refund. A refund with credit took that much off what the bill asks (a
 * service not given), giving back amount (0: a credit note); a still_owed one gave amount
 * back to be paid another way, and the bill asks it again.
 */
export interface Receipt {
  kind: 'payment' | 'refund'
  method: string
  amount: number
  credit: number
  still_owed: boolean
  receipt: string
  at: string
}

/** A bill as issued: the lines come to subtotal, less discount is total; total − credited − paid = balance. */
export interface Bill {
  number: string
  status: 'final' | 'void'
  issued_at: string
  subtotal: number
  discount: number
  total: number
  paid: number
  credited: number
  balance: number
  lines: { description: string; quantity: number; discount: number; amount: number }[]
  receipts: Receipt[]
}

/** A record's bills, the newest listed; balance is what all issued bills ask, listed or not. */
export interface Bills {
  currency: string
  minor_units: number
  balance: number
  issued: number
  bills: Bill[]
}

export interface Contact {
  phone: string
  email: string
  reminders: 'email' | 'sms' | 'none'
  message_language: '' | 'en' | 'ru' | 'zh' | 'vi'
  version: number
  /** False in a guardian's session: a child's contact is changed at the desk. */
  can_change: boolean
}

/** A refused call: the status, the server's key and its sentence (in the page's language). */
/**
 * What a refusal says, in the page's language: a field's own message when the server named one
 * (a channel the clinic does not send by, an address in the wrong form), else its sentence,
 * else the page's own (failed).
 */
export function said(failed: string, e: unknown): string {
  if (!(e instanceof Refusal)) return failed
  return Object.values(e.fields).flat()[0] || e.message || failed
}

export class Refusal extends Error {
  status: number
  code: string
  fields: Record<string, string[]>
  constructor(status: number, code: string, message: string, fields: Record<string, string[]> = {}) {
    super(message)
    this.status = status
    this.code = code
    this.fields = fields
  }
}

/** The portal's CSRF token, from its cookie (the __Host- name over https). */
function csrf(): string {
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === 'XSRF-PORTAL' || name === '__Host-XSRF-PORTAL') return decodeURIComponent(rest.join('='))
  }
  return ''
}

/** Calls the portal's API in lang; resolves with the JSON body (undefined for 204). */
export async function call<T>(lang: string, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': lang, 'X-Requested-With': 'XMLHttpRequest' }
  if (method !== 'GET') headers['X-XSRF-TOKEN'] = csrf()
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(`/api/portal${path}`, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  } catch {
    throw new Refusal(0, 'network', '')
  }
  if (res.status === 204) return undefined as T
  const data = (await res.json().catch(() => ({}))) as { error?: string; code?: string; errors?: Record<string, string[]> }
  if (!res.ok) throw new Refusal(res.status, data.code ?? '', data.error ?? '', data.errors ?? {})
  return data as T
}

/** A result as the patient reads it, in the page's language (the value carries its unit). */
export interface ReleasedValue {
  name: string
  value: string
  unit: string
  flag: string
  /** The flag in plain words: "above the usual range"… */
  flag_text: string
  range: string
  /** Why no range (or not the patient's own) judged the value, in plain words; never blank as if normal. */
  range_note?: string
  corrected: boolean
}

/**
 * An item of the record the patient may see (ADR 45); a held one carries only its note, and so
 * does a withdrawn one (opened by the patient, and now never shown): nothing to show or open.
 */
export interface ReleasedItem {
  kind: 'result' | 'document' | 'prescription'
  id: number
  title: string
  date: string
  document_kind?: string
  held: boolean
  withdrawn: boolean
  note?: string
  corrected: boolean
  results?: ReleasedValue[]
}

export interface Released {
  items: ReleasedItem[]
  /** Read in the adolescent's view: what is given in person is not listed. */
  limited: boolean
}

/** A piece of a document's text; always drawn as text. */
export interface DocumentRun {
  text: string
  bold?: boolean
}

/** A block of a document as it was issued. */
export interface DocumentBlock {
  type: 'h1' | 'h2' | 'p' | 'ul' | 'table' | 'hr'
  runs?: DocumentRun[]
  items?: DocumentRun[][]
  rows?: DocumentRun[][][]
}

export interface PrescriptionSheet {
  number: number
  issued_at: string | null
  lines: { medicine: string; dose: string; route: string; frequency: string; duration: string; quantity: string; unit: string; refills: number; instructions: string }[]
  notes: string
  diagnoses: string[]
  prescriber: string
  specialisations: string[]
  licences: string[]
}

/** One released item as it was printed. */
export interface Opened extends ReleasedItem {
  content?: DocumentBlock[]
  /** A document's language: its blocks are written in it. */
  language?: string
  prescription?: PrescriptionSheet
}
