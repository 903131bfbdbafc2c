// A light checkbox: a native checkbox inside its label, so that the text names it and a click on
// the text ticks it; Space ticks it from the keyboard. Drawn at the library's 16 px in the
// clinic's colour.
import type { ReactNode } from 'react'
import styles from './Checkbox.module.css'

export interface CheckboxProps {
  checked: boolean
  onChange: (checked: boolean) => void
  children: ReactNode
  disabled?: boolean
}

export function Checkbox({ checked, onChange, children, disabled }: CheckboxProps) {
  return (
    <label className={styles.label}>
      <input type="checkbox" className={styles.input} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>{children}</span>
    </label>
  )
}
