// Dates and relative times (spec §9), on dayjs and the browser's Intl for each language's
// own words and plural forms.
import dayjs from 'dayjs'

/** The spec's default date format: year-month-day hour:minute:second. */
export const DEFAULT_FORMAT = 'YYYY-MM-DD HH:mm:ss'

export type TimeInput = Date | number | string

/** Parses a time; a ten-digit number (or numeric string) is seconds since the epoch. */
export function toDate(time: TimeInput): Date {
  if (time instanceof Date) return time
  if (/^\d{10}$/.test(String(time))) return new Date(Number(time) * 1000)
  if (typeof time === 'string' && /^\d+$/.test(time)) return new Date(Number(time))
  return new Date(time)
}

/** Formats a time with a dayjs format (default year-month-day hour:minute:second). */
export function formatDate(time: TimeInput, format = DEFAULT_FORMAT): string {
  return dayjs(toDate(time)).format(format)
}

/**
 * Says how long ago a time was, the spec's way: under 30 s "just now"; under an hour, minutes
 * ago; under a day, hours ago; under two days, "1 day ago"; beyond that the given format, or
 * else month, day, hour and minute in the language's own style.
 */
export function relativeTime(time: TimeInput, lang: string, justNow: string, format?: string, now = Date.now()): string {
  const date = toDate(time)
  const diff = (now - date.getTime()) / 1000
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'always' })
  if (diff < 30) return justNow
  if (diff < 3600) return rtf.format(-Math.ceil(diff / 60), 'minute')
  if (diff < 3600 * 24) return rtf.format(-Math.ceil(diff / 3600), 'hour')
  if (diff < 3600 * 24 * 2) return rtf.format(-1, 'day')
  if (format) return formatDate(date, format)
  return new Intl.DateTimeFormat(lang, { month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(date)
}
