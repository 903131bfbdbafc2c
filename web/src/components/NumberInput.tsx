// The app's number field: the light text field (light/Input.tsx) whose value is a number, with
// its unit at its end and what was read said under it (NumberNote). The visit's vitals and the
// library's forms (the analytes' settings) use it alike; its props are a form field's.
import { useState, type CSSProperties, type InputHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { NumberNote } from '../light/NumberInput'
import { Input } from '../light/Input'
import { readNumber, writeNumber } from '../lib/number'
import styles from './NumberInput.module.css'

// The note under a number field is the light one (light/NumberInput.tsx), shared by the
// library's forms and the light ones.
export { NumberNote }
// Its reading from a library's form, for the screens still on it, is components/FieldNumberNote:
// not exported from here, so that a light screen that takes NumberInput does not load the library.

export interface NumberInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  value?: number | null
  onChange?: (v: number | null) => void
  /** Shown at the field's end ("kg", "mmHg") and in the note's reading. */
  unit?: string
}

/**
 * A number field whose value is a number (null when empty; NaN when the text cannot be read,
 * which the form's checks refuse): typed as the user's language writes numbers, read by the
 * one reader (lib/number.ts), with the number read said back under it.
 */
export function NumberInput({ value, onChange, unit, className, ...rest }: NumberInputProps) {
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
      <span className={styles.box}>
        <Input
          {...rest}
          className={[styles.input, unit ? styles.withUnit : '', className].filter(Boolean).join(' ')}
          style={unit ? ({ '--unit-width': `${unit.length * 0.6 + 0.5}em` } as CSSProperties) : undefined}
          value={text}
          inputMode="decimal"
          autoComplete="off"
          onChange={(e) => {
            const typed = e.target.value
            const read = typed.trim() === '' ? null : (readNumber(typed, lang).value ?? Number.NaN)
            setText(typed)
            setSeen(read)
            onChange?.(read)
          }}
        />
        {unit && (
          <span className={styles.unit}>
            {unit}
          </span>
        )}
      </span>
      <NumberNote text={text} unit={unit} />
    </>
  )
}
