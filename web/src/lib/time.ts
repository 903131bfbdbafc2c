// Dates and relative times (spec §9), on dayjs and the browser's Intl for each language's
// own words and plural forms.
import dayjs from 'dayjs'
import i18n from 'i18next'

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

/**
 * Each language's own short date (the API keeps ISO year-month-day): Russian 01.03.2025,
 * Vietnamese 01/03/2025, Chinese 2025/03/01; English keeps the spec's year-month-day, which
 * no English-speaking reader misreads (03/01 is March in one country and January in another).
 */
// Chinese screens write dates with hyphens (GB/T 7408), not slashes.
export const DATE_FORMATS: Record<string, string> = { en: 'YYYY-MM-DD', ru: 'DD.MM.YYYY', zh: 'YYYY-MM-DD', vi: 'DD/MM/YYYY' }

/** The short date format of the interface language. */
export const dateFormat = (lang = i18n.language) => DATE_FORMATS[lang] ?? DATE_FORMATS.en

/**
 * The ways a date may be typed in each language, the one shown first: what its users write
 * (29.11.2026, 29/11/2026, 2026/11/29, with or without leading zeros), then ISO. English
 * takes only year first: 11/29 is November in one country and the 11th month nowhere else.
 */
const TYPED_DATE_FORMATS: Record<string, string[]> = {
  en: ['YYYY-MM-DD', 'YYYY-M-D', 'YYYY/MM/DD', 'YYYY/M/D'],
  ru: ['DD.MM.YYYY', 'D.M.YYYY', 'DD/MM/YYYY', 'D/M/YYYY', 'YYYY-MM-DD'],
  zh: ['YYYY-MM-DD', 'YYYY-M-D', 'YYYY/MM/DD', 'YYYY/M/D', 'YYYY.MM.DD', 'YYYY年M月D日'],
  vi: ['DD/MM/YYYY', 'D/M/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'YYYY-MM-DD'],
}

/** The formats a date field shows (the first) and reads typed dates in, for the interface language. */
export const dateInputFormats = (lang = i18n.language) => TYPED_DATE_FORMATS[lang] ?? TYPED_DATE_FORMATS.en

/** A day (an ISO date or a time) in the interface language's short format. */
export const formatDay = (time: TimeInput, lang = i18n.language) => formatDate(/^\d{4}-\d{2}-\d{2}$/.test(String(time)) ? `${time}T00:00:00` : time, dateFormat(lang))

/** A month of a year in the interface language's short form (the short date without its day): 2026-11, 11.2026, 11/2026. */
export const formatMonth = (time: TimeInput, lang = i18n.language) => formatDate(time, dateFormat(lang).replace(/DD[./-]|[./-]DD/, ''))

/** A time to the minute, its day in the interface language's short format. */
export const formatDayTime = (time: TimeInput, lang = i18n.language) => formatDate(time, `${dateFormat(lang)} HH:mm`)

/** A day as a paper writes it: the screens' form, except Chinese papers, which write 2026年11月25日 (as their text does). */
export const paperDay = (time: TimeInput, lang = i18n.language) => (lang === 'zh' ? formatDate(/^\d{4}-\d{2}-\d{2}$/.test(String(time)) ? `${time}T00:00:00` : time, 'YYYY年M月D日') : formatDay(time, lang))

/**
 * A day as a clinical document's text writes it (the server's {{today}}, document/values.go):
 * "28 November 2026" in English, the paper's day in the other languages (28.11.2026,
 * 28/11/2026, 2026年11月28日), so that a certificate says its date one way throughout.
 */
export const documentDay = (time: TimeInput, lang = i18n.language) =>
  lang === 'en' ? new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }).format(toDate(/^\d{4}-\d{2}-\d{2}$/.test(String(time)) ? `${time}T00:00:00` : time)) : paperDay(time, lang)

/** A moment as a paper writes it (paperDay, and the time). */
export const paperDayTime = (time: TimeInput, lang = i18n.language) => (lang === 'zh' ? formatDate(time, 'YYYY年M月D日 HH:mm') : formatDayTime(time, lang))
