// A light switch: a native checkbox with role="switch" inside its label, so that the label's
// text names it and a click on the text turns it; Space turns it from the keyboard. The box is
// drawn as Ant Design's small switch: a track and a knob.
import type { ReactNode } from 'react'
import styles from './Switch.module.css'

export interface SwitchProps {
  checked: boolean
  onChange: (checked: boolean) => void
  children: ReactNode
  disabled?: boolean
  className?: string
}

export function Switch({ checked, onChange, children, disabled, className }: SwitchProps) {
  return (
    <label className={[styles.label, className].filter(Boolean).join(' ')}>
      <span className={styles.box}>
        <input type="checkbox" role="switch" className={styles.input} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
        <span className={styles.track} aria-hidden />
      </span>
      {children}
    </label>
  )
}
