// Light number fields: what a typed number was read as, said under the field (NumberNote), and
// an amount of money typed as the user's language writes it (AmountInput: "1 500,50" in
// Russian), read by the one reader (lib/number.ts) with its note under it. The text is the
// form's; the caller reads it with its own money (useMoney's parse), so nothing is guessed here.
import { forwardRef, type InputHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { echoNumber, readAmount, readingNeedsEcho, readNumber } from '../lib/number'
import { Input } from './Input'
import styles from './NumberInput.module.css'

/**
 * What a typed number was read as, under its field: the problem when it cannot be read
 * ("1.500" in Vietnamese), or "You entered 1 500 U/L" when the reading could be taken for
 * another; nothing for a plain number. amountUnits reads it as money of that many decimals.
 */
export function NumberNote({ text, unit, amountUnits, censored }: { text: string | undefined; unit?: string; amountUnits?: number; censored?: boolean }) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  // A censored result ("<0.01", "≥ 90") is its comparator and a number: the number is read.
  const sign = censored ? (/^\s*(<=|>=|≤|≥|<|>)\s*/.exec(text ?? '')?.[0] ?? '') : ''
  text = text?.slice(sign.length)
  // The live region stays mounted while the field is, so that a note appearing in it is read
  // out (a region added with its words is often missed).
  if (!text?.trim()) return <div aria-live="polite" />
  let problem: string | undefined
  let value: number | undefined
  if (amountUnits === undefined) {
    ;({ problem, value } = readNumber(text, lang))
  } else {
    const r = readAmount(text, lang, amountUnits)
    problem = r.problem
    value = r.minor === undefined ? undefined : r.minor / 10 ** amountUnits
  }
  const shown = problem || readingNeedsEcho(text, lang)
  return (
    <div aria-live="polite">
      {shown && (
        <div data-testid="number-note">
          {problem ? (
            <span className={styles.problem}>{t(problem)}</span>
          ) : (
            <span className={styles.echo}>{t('number.youEntered', { value: `${sign.trim()}${sign ? ' ' : ''}${echoNumber(value!, lang)}${unit ? ` ${unit}` : ''}` })}</span>
          )}
        </div>
      )}
    </div>
  )
}

export interface AmountInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> {
  value: string
  onChange: (text: string) => void
}

/** A text field for an amount of money: decimal keyboard on a phone, 18 characters at most. */
export const AmountInput = forwardRef<HTMLInputElement, AmountInputProps>(function AmountInput({ value, onChange, ...rest }, ref) {
  return <Input ref={ref} inputMode="decimal" maxLength={18} autoComplete="off" {...rest} value={value} onChange={(e) => onChange(e.target.value)} />
})
