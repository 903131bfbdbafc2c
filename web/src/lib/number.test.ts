import { describe, expect, it } from 'vitest'
import { echoNumber, readAmount, readingNeedsEcho, readNumber, writeNumber } from './number'

// The same rows as the server's reader (internal/i18n/number_test.go): both must read a typed
// number alike. Sources: CLDR number symbols (en, zh decimal "." group ","; ru decimal ","
// group U+00A0; vi decimal "," group "."), SI Brochure 5.4.4 / ISO 80000-1 (digits grouped
// with a space), results review C3 (ALT "1.500" U/L read as 1.5 in Vietnamese).
const CLDR = 'CLDR number symbols'
const SI = 'SI Brochure / ISO 80000-1'
const C3 = 'results review C3'

describe('readNumber', () => {
  it.each([
    // lang, typed, value or problem, source
    ['ru', '5,6', 5.6, CLDR],
    ['vi', ' 5,6 ', 5.6, CLDR],
    ['ru', '5.6', 5.6, 'issue 35'],
    ['vi', '5.60', 5.6, 'issue 35'],
    ['vi', '1.5000', 1.5, 'four decimals are no thousands group'],
    ['en', '5.6', 5.6, CLDR],
    ['zh', '5.6', 5.6, CLDR],
    ['en', '5,6', 'number.decimalPoint', CLDR],
    ['zh', '5,6', 'number.decimalPoint', CLDR],
    ['en', '-0.5', -0.5, CLDR],
    ['en', '.5', 0.5, CLDR],
    ['vi', '1.500', 'number.thousands', C3],
    ['vi', '12.000', 'number.thousands', CLDR],
    ['ru', '1.500', 'number.thousands', CLDR],
    ['vi', '1.500,5', 'number.thousands', CLDR],
    ['vi', '1.500.000', 'number.thousands', CLDR],
    ['vi', '0.500', 0.5, 'a zero whole part is no thousands group'],
    ['vi', '.500', 0.5, 'no whole part is no thousands group'],
    ['vi', '1,500', 1.5, 'the comma is the decimal sign in Vietnamese'],
    ['ru', '1,234,5', 'number.notANumber', CLDR],
    ['en', '1,500', 'number.thousands', CLDR],
    ['zh', '12,000', 'number.thousands', CLDR],
    ['en', '1,500.5', 'number.thousands', CLDR],
    ['en', '1,50', 'number.decimalPoint', CLDR],
    ['en', '1.500', 1.5, 'the point is the decimal sign in English'],
    ['ru', '1 500', 1500, SI],
    ['ru', '1\u00a0500', 1500, CLDR],
    ['ru', '1\u202f500,5', 1500.5, SI],
    ['vi', '1 500', 1500, SI],
    ['en', '12 000.25', 12000.25, SI],
    ['ru', '15 00', 'number.notANumber', SI],
    ['en', '', 'number.notANumber', 'plain digits'],
    ['en', 'abc', 'number.notANumber', 'plain digits'],
    ['en', '1e3', 'number.notANumber', 'plain digits'],
    ['en', 'NaN', 'number.notANumber', 'plain digits'],
    ['en', '0x10', 'number.notANumber', 'plain digits'],
    ['en', '--5', 'number.notANumber', 'plain digits'],
  ] as const)('%s %j → %s (%s)', (lang, typed, want, source) => {
    const r = readNumber(typed, lang)
    expect(typeof want === 'number' ? r.value : r.problem, source).toBe(want)
  })
})

describe('readAmount', () => {
  it.each([
    // lang, typed, currency's decimals, minor units or problem, source
    ['vi', '200.000', 0, 200000, 'translations review S6'],
    ['vi', '1.200.000', 0, 1200000, 'translations review S6'],
    ['vi', '200 000', 0, 200000, SI],
    ['vi', '200,5', 0, 'number.tooManyDecimals', 'ISO 4217: VND 0'],
    ['vi', '1.500', 2, 'number.thousands', CLDR],
    ['vi', '1.500,50', 2, 'number.thousands', CLDR],
    ['vi', '1500,50', 2, 150050, CLDR],
    ['ru', '350,50', 2, 35050, CLDR],
    ['ru', '350.5', 2, 35050, 'issue 35'],
    ['ru', '1 350,50', 2, 135050, CLDR],
    ['ru', '200.000', 0, 'number.thousands', 'Russian groups with spaces'],
    ['en', '350.50', 2, 35050, CLDR],
    ['en', '350.505', 2, 'number.tooManyDecimals', 'ISO 4217'],
    ['en', '1,500', 2, 'number.thousands', CLDR],
    ['en', '200,000', 0, 200000, CLDR],
    ['en', '-5', 2, 'number.notANumber', 'an amount has no sign'],
    ['en', '5.', 2, 'number.notANumber', 'an amount is written whole'],
    ['en', '', 2, 'number.notANumber', 'plain digits'],
    ['en', '123456789012345', 0, 'number.notANumber', 'at most 14 whole digits'],
  ] as const)('%s %j (%d decimals) → %s (%s)', (lang, typed, units, want, source) => {
    const r = readAmount(typed, lang, units)
    expect(typeof want === 'number' ? r.minor : r.problem, source).toBe(want)
  })
})

describe('the number said back', () => {
  it.each([
    // lang, typed, said back ('' when the reading is plain)
    ['vi', '1 500', '1\u202f500'],
    ['ru', '5.6', '5,6'],
    ['vi', '0.500', '0,5'],
    ['ru', '1,500', '1,5'],
    ['en', '1.500', '1.5'],
    ['en', '12 000.25', '12\u202f000.25'],
    ['ru', '36,6', ''],
    ['en', '36.6', ''],
    ['vi', '1500', ''],
  ] as const)('%s %j → %j', (lang, typed, want) => {
    const r = readNumber(typed, lang)
    expect(readingNeedsEcho(typed, lang) ? echoNumber(r.value!, lang) : '').toBe(want)
  })

  it('fills a field with the language\'s decimal sign, read back as the same number', () => {
    for (const lang of ['en', 'ru', 'zh', 'vi']) {
      for (const v of [36.6, 1500, 0.125, 70]) expect(readNumber(writeNumber(v, lang), lang).value).toBe(v)
    }
  })
})
