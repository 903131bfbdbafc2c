// Numbers typed by a person, read as their language writes them and never guessed: the one
// reader of the web app, case for case the server's (internal/i18n/number.go), so that what
// the form accepts the server accepts and reads the same.
//
// - Every language: digits may be grouped by threes with spaces (space, U+00A0, U+202F,
//   U+2009: SI / ISO 80000-1 grouping): "1 500" is 1500.
// - Russian and Vietnamese (decimal comma, CLDR): "5,6" and "5.6" are 5.6; a point before
//   exactly three digits ("1.500") is refused as a possible thousands group unless the whole
//   part is zero ("0.500" is 0.5); a point with a comma ("1.500,5") or several points are
//   thousands groups, refused.
// - English and Chinese (decimal point): "1.500" is 1.5; "1,500" is refused as a thousands
//   group, any other comma ("5,6") as a decimal comma.
// - Money (readAmount): in a currency without decimals the language's own thousands sign
//   groups ("200.000" đồng in Vietnamese, "200,000" in English or Chinese).

/** Why a typed number was not read: an i18n key (under "number"). */
export type NumberProblem = 'number.notANumber' | 'number.decimalPoint' | 'number.thousands' | 'number.tooManyDecimals'

export type NumberReading = { value: number; problem?: undefined } | { value?: undefined; problem: NumberProblem }

const commaDecimal = (lang: string) => {
  const l = lang.slice(0, 2)
  return l === 'ru' || l === 'vi'
}

/** The thousands sign CLDR gives lang other than a space: none in Russian. */
function groupSign(lang: string): string {
  const l = lang.slice(0, 2)
  return l === 'vi' ? '.' : l === 'ru' ? '' : ','
}

const grouped = (sep: string) => new RegExp(`^\\d{1,3}(${sep === '.' ? '\\.' : sep}\\d{3})+$`)
const GROUPS: Record<string, RegExp> = { ' ': grouped(' '), ',': grouped(','), '.': grouped('.') }
const DIGITS = /^\d*$/

const spaces = (s: string) => s.trim().replace(/[\u00a0\u202f\u2009]/g, ' ')

type Parts = { neg: boolean; whole: string; frac: string; problem?: undefined } | { problem: NumberProblem }

/** text as sign, whole digits and decimal digits, by the rule above. */
function split(text: string, lang: string): Parts {
  let s = spaces(text)
  let neg = false
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s.startsWith('-')
    s = s.slice(1)
  }
  let whole: string
  let frac: string
  if (commaDecimal(lang)) {
    const points = s.split('.').length - 1
    if (points > 1 || (points === 1 && s.includes(','))) return { problem: 'number.thousands' }
    if (s.split(',').length > 2) return { problem: 'number.notANumber' }
    const sep = points === 1 ? '.' : ','
    ;[whole, frac = ''] = s.split(sep)
    if (sep === '.' && frac.length === 3 && DIGITS.test(frac) && whole.replace(/[ 0]/g, '') !== '') return { problem: 'number.thousands' }
  } else {
    if (s.includes(',')) return GROUPS[','].test(s.split('.')[0]) ? { problem: 'number.thousands' } : { problem: 'number.decimalPoint' }
    ;[whole, frac = ''] = s.split('.')
  }
  if (whole.includes(' ')) {
    if (!GROUPS[' '].test(whole)) return { problem: 'number.notANumber' }
    whole = whole.replaceAll(' ', '')
  }
  if (whole + frac === '' || !DIGITS.test(whole) || !DIGITS.test(frac)) return { problem: 'number.notANumber' }
  return { neg, whole, frac }
}

/** A number typed in lang: its value, or the problem that keeps it from being read. */
export function readNumber(text: string, lang: string): NumberReading {
  const p = split(text, lang)
  if (p.problem) return { problem: p.problem }
  const value = Number(`${p.whole || '0'}.${p.frac || '0'}`)
  return { value: p.neg ? -value : value }
}

/**
 * An amount of money typed in lang, in minor units of a currency with units decimals: the
 * rule of readNumber, and in a currency without decimals the language's thousands sign.
 */
export function readAmount(text: string, lang: string, units: number): { minor: number; problem?: undefined } | { minor?: undefined; problem: NumberProblem } {
  let s = spaces(text)
  if (/[+-]/.test(s) || /^[.,]|[.,]$/.test(s)) return { problem: 'number.notANumber' }
  const g = groupSign(lang)
  if (units === 0 && g && GROUPS[g].test(s)) s = s.replaceAll(g, '')
  const p = split(s, lang)
  if (p.problem) return { problem: p.problem }
  const whole = p.whole.replace(/^0+/, '')
  if (p.frac.length > units) return { problem: 'number.tooManyDecimals' }
  if (whole.length > 14) return { problem: 'number.notANumber' }
  return { minor: Number(whole || '0') * 10 ** units + Number(p.frac.padEnd(units, '0') || '0') }
}

/**
 * Whether the reading of text could be taken for another, so the form says the number it
 * read before saving: digits grouped, the other decimal sign than the language's, or a sign
 * before exactly three digits (1.500 in English is 1.5; 0.500 in Vietnamese is 0.5).
 */
export function readingNeedsEcho(text: string, lang: string): boolean {
  const s = spaces(text)
  const own = commaDecimal(lang) ? ',' : '.'
  return s.includes(' ') || s.includes(own === ',' ? '.' : ',') || /[.,]\d{3}$/.test(s)
}

/**
 * A number as the form says it back: digits grouped by threes with a narrow no-break space
 * (the SI way, which no language reads as decimals) and lang's decimal sign: "1 500", "0,5".
 */
export function echoNumber(value: number, lang: string): string {
  const [whole, frac] = String(Math.abs(value)).split('.')
  const groupedWhole = whole.length > 3 ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f') : whole
  return `${value < 0 ? '-' : ''}${groupedWhole}${frac ? (commaDecimal(lang) ? ',' : '.') + frac : ''}`
}

/** A stored number as a person of lang types it, to fill a field: 36.6 → "36,6" in Russian. */
export function writeNumber(value: number, lang: string): string {
  const s = String(value)
  return commaDecimal(lang) ? s.replace('.', ',') : s
}
