import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { decimalSign, formatMoney, parseMajor, toMajor } from '../../../lib/money'
import { readAmount } from '../../../lib/number'

/** Money in one currency: shown in the user's language, typed in major units. */
export function useMoney(currency: string, units: number) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  // The same object while the currency and language are: a table's memoised columns keep.
  return useMemo(() => money(currency, units, lang, t), [currency, units, lang, t])
}

function money(currency: string, units: number, lang: string, t: TFunction) {
  // Typed and prefilled with the language's decimal sign: 350,50 in ru and vi, 350.50 elsewhere
  // (either is read).
  const sign = decimalSign(lang)
  const major = (minor: number) => toMajor(minor, units).replace('.', sign)
  const check = (v: string | undefined, zeroOk = false) => {
    if (!v?.trim()) return undefined
    const r = readAmount(v, lang, units)
    // A possible thousands group is said as such; anything else with an example.
    if (r.problem === 'number.thousands') return t(r.problem)
    if (r.minor === undefined || (!zeroOk && r.minor === 0)) return t('bill.badAmount', { example: major((35050 * 10 ** units) / 100) })
    return undefined
  }
  return {
    currency,
    units,
    format: (minor: number) => formatMoney(minor, currency, units, lang),
    toMajor: major,
    parse: (text: string) => parseMajor(text, units, lang),
    /** A light form's check: what is wrong with v as an amount of this currency (more than zero unless zeroOk); empty is fine. */
    check,
    /** A library form's rule: the same check. */
    rule: (zeroOk = false) => ({
      validator: async (_: unknown, v: string | undefined) => {
        const problem = check(v, zeroOk)
        if (problem) throw new Error(problem)
      },
    }),
  }
}

export type Money = ReturnType<typeof useMoney>
