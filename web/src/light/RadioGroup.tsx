// A light radio group: native radio inputs in a fieldset whose legend names the group (the
// form's label for it), so that arrows move the choice and a screen reader hears the question.
// Drawn as the library's radio buttons (look="button": a row of joined buttons, the chosen one
// in the clinic's colour) or as its plain radios (look="radio"). Values are typed (numbers
// stay numbers), as Select's.
import { useId, type ReactNode } from 'react'
import fieldStyles from './Field.module.css'
import styles from './RadioGroup.module.css'

export interface RadioOption<V extends string | number> {
  value: V
  label: ReactNode
  /** Not to be chosen (a choice the user has no permission for): shown greyed, skipped by the arrows. */
  disabled?: boolean
}

export interface RadioGroupProps<V extends string | number> {
  legend: ReactNode
  value: V
  options: RadioOption<V>[]
  onChange: (value: V) => void
  look?: 'button' | 'radio'
  /** In a row of controls (a card's tools): the legend is said, not shown, and no form's space follows. */
  inline?: boolean
  /** small: the library's small radio buttons (24 px), beside small buttons. */
  size?: 'small'
  /** Marked required as a form's field (the mark drawn, as Field's). */
  required?: boolean
  /** What is wrong with the choice (drawn red under the group, said with each radio); nothing when it is fine. */
  error?: ReactNode
  /** A line of help under the group, said with each radio. */
  help?: ReactNode
}

export function RadioGroup<V extends string | number>({ legend, value, options, onChange, look = 'radio', inline, size, required, error, help }: RadioGroupProps<V>) {
  const name = useId()
  const described = [help && `${name}-help`, error && `${name}-error`].filter(Boolean).join(' ') || undefined
  return (
    <fieldset className={[fieldStyles.field, styles.group, inline ? styles.inline : ''].filter(Boolean).join(' ')}>
      <legend className={inline ? 'visually-hidden' : [fieldStyles.label, styles.legend, required ? fieldStyles.required : ''].filter(Boolean).join(' ')}>{legend}</legend>
      <div className={[look === 'button' ? styles.buttons : styles.radios, size === 'small' ? styles.small : ''].filter(Boolean).join(' ')}>
        {options.map((o) => (
          <label key={String(o.value)} className={look === 'button' ? styles.button : styles.radio}>
            <input type="radio" className={look === 'button' ? styles.hidden : styles.input} name={name} checked={o.value === value} disabled={o.disabled} onChange={() => onChange(o.value)} aria-describedby={described} aria-invalid={error ? true : undefined} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {help && (
        <div id={`${name}-help`} className={fieldStyles.help}>
          {help}
        </div>
      )}
      {error && (
        <div id={`${name}-error`} className={fieldStyles.error}>
          {error}
        </div>
      )}
    </fieldset>
  )
}
