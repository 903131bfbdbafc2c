// Money in the clinic currency's minor units (centavos, kopecks, fen; whole đồng): the
// server's only form of an amount. Shown with Intl.NumberFormat in the user's language; typed
// in major units and turned into minor units by text, never by floating-point arithmetic.

import { readAmount } from './number'

/** An amount of minor units written in the user's language: ₱350.50, 200.000 ₫, 350,50 ₽. */
export function formatMoney(minor: number, currency: string, units: number, lang: string) {
  const f = new Intl.NumberFormat(lang, { style: 'currency', currency, minimumFractionDigits: units, maximumFractionDigits: units })
  const whole = Math.trunc(minor / 10 ** units)
  const part = Math.abs(minor % 10 ** units)
  // Formatted from its parts' text, so no amount is ever rounded through a binary fraction.
  return f.format(Number(`${minor < 0 && whole === 0 ? '-' : ''}${whole}.${String(part).padStart(units, '0')}`))
}

/**
 * The amount of minor units in major-unit text as lang writes it ("350.50"; "350,50" in ru
 * and vi; "200.000" đồng in vi), undefined when not one: lib/number.ts readAmount, the one
 * reader, which never takes a thousands group for decimals.
 */
export function parseMajor(text: string, units: number, lang: string): number | undefined {
  return readAmount(text, lang, units).minor
}

/** The sign lang writes decimals with: "," in ru and vi, "." in en and zh. */
export function decimalSign(lang: string) {
  return new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.'
}

/** Minor units as major-unit text with the currency's decimals: 35050 → "350.50". */
export function toMajor(minor: number, units: number) {
  if (units === 0) return String(minor)
  const p = 10 ** units
  return `${minor < 0 ? '-' : ''}${Math.trunc(Math.abs(minor) / p)}.${String(Math.abs(minor) % p).padStart(units, '0')}`
}
