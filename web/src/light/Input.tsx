// Light text fields: a native <input>, <textarea> and <select> drawn as the library's, sized by
// the size setting, their edge red while `aria-invalid` (set by Field). The select is the
// browser's own: its list, search by typing and keyboard come with it, on a phone the system's
// picker. A select with search over many options is Combobox.
import { forwardRef, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'
import styles from './Input.module.css'

const cls = (base: string, extra?: string) => [styles.control, base, extra].filter(Boolean).join(' ')

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, type = 'text', ...rest }, ref) {
  return <input ref={ref} type={type} className={cls(styles.input, className)} {...rest} />
})

export const TextArea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function TextArea({ className, rows = 3, ...rest }, ref) {
  return <textarea ref={ref} rows={rows} className={cls(styles.textarea, className)} {...rest} />
})

export interface SelectOption<V extends string | number> {
  value: V
  label: string
  disabled?: boolean
}

export interface SelectProps<V extends string | number> extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: V
  options: SelectOption<V>[]
  onChange: (value: V) => void
}

/** A native select over typed values (numbers stay numbers). */
export function Select<V extends string | number>({ value, options, onChange, className, ...rest }: SelectProps<V>) {
  return (
    <select
      className={cls(styles.select, className)}
      value={String(value)}
      onChange={(e) => {
        const o = options.find((x) => String(x.value) === e.target.value)
        if (o) onChange(o.value)
      }}
      {...rest}
    >
      {options.map((o) => (
        <option key={String(o.value)} value={String(o.value)} disabled={o.disabled}>
          {o.label}
        </option>
      ))}
    </select>
  )
}
