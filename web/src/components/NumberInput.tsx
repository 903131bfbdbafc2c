import { Form, Input, type InputProps } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { NumberNote } from '../light/NumberInput'
import { readNumber, writeNumber } from '../lib/number'

// The note under a number field is the light one (light/NumberInput.tsx), shared by the
// library's forms and the light ones.
export { NumberNote }

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
