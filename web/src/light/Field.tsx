// A light form field: its label, the control, a line of help and the validation message under
// it, drawn as the library's vertical form item. The control gets the ids it needs through a
// render function: `id` (the label's), `aria-describedby` (help and error), `aria-invalid` and
// `aria-required`, so a screen reader hears the label, whether it is required, and what is
// wrong with it as the field takes focus. The message is the server's or the form's, in the
// user's language; it is shown, not only said (3.3.1).
import { useId, type ReactNode } from 'react'
import styles from './Field.module.css'

export interface ControlProps {
  id: string
  'aria-describedby'?: string
  'aria-invalid'?: true
  'aria-required'?: true
}

export interface FieldProps {
  label: ReactNode
  /** What is wrong with the value (drawn red under the field); nothing when it is fine. */
  error?: ReactNode
  help?: ReactNode
  required?: boolean
  /** Laid out by the form around it (its width in a row of fields, its space below). */
  className?: string
  /** The control, given its ids. */
  children: (control: ControlProps) => ReactNode
}

export function Field({ label, error, help, required, className, children }: FieldProps) {
  const id = useId()
  const described = [help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      {/* The required mark is drawn by the style sheet, as the library's: the label's text is the label alone. */}
      <label htmlFor={id} className={required ? `${styles.label} ${styles.required}` : styles.label}>
        {label}
      </label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': error ? true : undefined, 'aria-required': required ? true : undefined })}
      {help && (
        <div id={`${id}-help`} className={styles.help}>
          {help}
        </div>
      )}
      {error && (
        <div id={`${id}-error`} className={styles.error}>
          {error}
        </div>
      )}
    </div>
  )
}
