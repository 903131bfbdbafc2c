import { Form, Input, Typography, type InputProps } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { echoNumber, readAmount, readingNeedsEcho, readNumber, writeNumber } from '../lib/number'

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
  if (!text?.trim()) return null
  let problem: string | undefined
  let value: number | undefined
  if (amountUnits === undefined) {
    ;({ problem, value } = readNumber(text, lang))
  } else {
    const r = readAmount(text, lang, amountUnits)
    problem = r.problem
    value = r.minor === undefined ? undefined : r.minor / 10 ** amountUnits
  }
  if (!problem && !readingNeedsEcho(text, lang)) return null
  return (
    <div aria-live="polite" data-testid="number-note">
      {problem ? (
        <Typography.Text type="danger">{t(problem)}</Typography.Text>
      ) : (
        <Typography.Text type="secondary">{t('number.youEntered', { value: `${sign.trim()}${sign ? ' ' : ''}${echoNumber(value!, lang)}${unit ? ` ${unit}` : ''}` })}</Typography.Text>
      )}
    </div>
  )
}

/** NumberNote for the text of a field of the form around it. */
export function FieldNumberNote({ name, unit, amountUnits, censored }: { name: (string | number)[] | string; unit?: string; amountUnits?: number; censored?: boolean }) {
  const form = Form.useFormInstance()
  const text = Form.useWatch(name, form) as string | undefined
  return <NumberNote text={text} unit={unit} amountUnits={amountUnits} censored={censored} />
}

/**
 * A number field whose value is a number (null when empty; NaN when the text cannot be read,
 * which the form's checks refuse): typed as the user's language writes numbers, read by the
 * one reader (lib/number.ts), with the number read said back under it.
 */
export function NumberInput({ value, onChange, unit, ...rest }: Omit<InputProps, 'value' | 'onChange'> & { value?: number | null; onChange?: (v: number | null) => void; unit?: string }) {
  const { i18n } = useTranslation()
  const lang = i18n.language
  const show = (v: number | null | undefined) => (v === null || v === undefined || Number.isNaN(v) ? '' : writeNumber(v, lang))
  const [text, setText] = useState(() => show(value))
  const [seen, setSeen] = useState<number | null | undefined>(value)
  if (!Object.is(seen, value)) {
    // Set from outside (loaded, copied forward, reset): show it as this language writes it.
    setSeen(value)
    setText(show(value))
  }
  return (
    <>
      <Input
        {...rest}
        value={text}
        inputMode="decimal"
        autoComplete="off"
        suffix={unit}
        onChange={(e) => {
          const typed = e.target.value
          const read = typed.trim() === '' ? null : (readNumber(typed, lang).value ?? Number.NaN)
          setText(typed)
          setSeen(read)
          onChange?.(read)
        }}
      />
      <NumberNote text={text} unit={unit} />
    </>
  )
}
