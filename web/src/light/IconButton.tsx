// A button that shows only an icon: named by its label (aria-label), which a small tooltip
// also shows on hover and on keyboard focus.
import type { ButtonHTMLAttributes } from 'react'
import styles from './IconButton.module.css'

export interface IconButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  label: string
  /** Off where the name is already in sight. */
  tooltip?: boolean
  /** The tooltip's edge: under the button's end (the default, for buttons at the right), or its start. */
  tooltipAlign?: 'start' | 'end'
}

export const iconButtonClass = styles.iconButton

export function IconButton({ label, tooltip = true, tooltipAlign = 'end', className, children, type = 'button', ...rest }: IconButtonProps) {
  return (
    <button type={type} aria-label={label} data-tooltip={tooltip ? label : undefined} data-tooltip-align={tooltipAlign} className={[styles.iconButton, className].filter(Boolean).join(' ')} {...rest}>
      {children}
    </button>
  )
}
