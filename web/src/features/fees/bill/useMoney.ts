import { useTranslation } from 'react-i18next'
import { decimalSign, formatMoney, parseMajor, toMajor } from '../../../lib/money'
import { readAmount } from '../../../lib/number'

/** Money in one currency: shown in the user's language, typed in major units. */
export function useMoney(currency: string, units: number) {
  const { t, i18n } = useTranslation()
  // Typed and prefilled with the language's decimal sign: 350,50 in ru and vi, 350.50 elsewhere
  // (either is read).
  const sign = decimalSign(i18n.language)
  const major = (minor: number) => toMajor(minor, units).replace('.', sign)
  return {
    currency,
    units,
    format: (minor: number) => formatMoney(minor, currency, units, i18n.language),
    toMajor: major,
    parse: (text: string) => parseMajor(text, units, i18n.language),
    /** A form rule: the field holds an amount of this currency (more than zero unless zeroOk). */
    rule: (zeroOk = false) => ({
      validator: async (_: unknown, v: string | undefined) => {
        if (!v?.trim()) return
        const r = readAmount(v, i18n.language, units)
        // A possible thousands group is said as such; anything else with an example.
        if (r.problem === 'number.thousands') throw new Error(t(r.problem))
        if (r.minor === undefined || (!zeroOk && r.minor === 0)) throw new Error(t('bill.badAmount', { example: major((35050 * 10 ** units) / 100) }))
      },
    }),
  }
}

export type Money = ReturnType<typeof useMoney>
