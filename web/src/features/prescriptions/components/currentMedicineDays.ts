// How the current medicines' dialogs read and write what is typed in them: a start or a stop
// (a day, a month or a year, in the user's order), a last dose (a day and an optional time), and
// a reason long enough to keep two medicines together.
import { formatDay, formatMonth } from '../../../lib/time'

/** A start as recorded (a day, a month or a year) in the user's format. */
export function partialDay(s: string, lang?: string) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDay(s, lang)
  if (/^\d{4}-\d{2}$/.test(s)) return formatMonth(`${s}-01T00:00:00`, lang)
  return s
}

/** Reads a start or stop typed in the user's order (05.03.2024, 03/2024, 2024/03/05, 2024/03) as the API takes it; anything else as typed, for the server to refuse. */
export function readPartialDay(text: string) {
  const s = text.trim()
  const day = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s)
  if (day) return `${day[3]}-${day[2].padStart(2, '0')}-${day[1].padStart(2, '0')}`
  const yearFirst = /^(\d{4})[./](\d{1,2})(?:[./](\d{1,2}))?$/.exec(s)
  if (yearFirst) return [yearFirst[1], yearFirst[2].padStart(2, '0'), ...(yearFirst[3] ? [yearFirst[3].padStart(2, '0')] : [])].join('-')
  const month = /^(\d{1,2})[./](\d{4})$/.exec(s)
  if (month) return `${month[2]}-${month[1].padStart(2, '0')}`
  return s
}

/** Today as an ISO date, in the user's time zone. */
export const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** A time of day as typed: 8:00, 08:00, 23:59. */
export const TIME = /^([01]?\d|2[0-3]):[0-5]\d$/

/** The last dose as the API takes it: YYYY-MM-DD, with THH:MM when a time is given (day: an ISO date, or '' for none). */
export function lastDoseOf(day: string, time?: string) {
  if (!day) return ''
  const hhmm = (time ?? '').trim()
  return TIME.test(hhmm) ? `${day}T${hhmm.padStart(5, '0')}` : day
}

/** The shortest reason for keeping both that the server takes: 5 characters, or 2 ideographs or syllables ("出血"). */
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
export const keepReasonLongEnough = (text: string) => {
  const v = text.trim()
  return [...v].length >= (IDEOGRAPH.test(v) ? 2 : 5)
}
