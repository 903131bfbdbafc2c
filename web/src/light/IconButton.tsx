// A button that shows only an icon: named by its label (aria-label), which a small tooltip
// (Tooltip.tsx) also shows on hover and on keyboard focus, for the eye only.
import type { ButtonHTMLAttributes } from 'react'
import { useTooltip } from './Tooltip'
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
  const tip = useTooltip(label, { placement: tooltipAlign === 'start' ? 'bottom-start' : 'bottom-end', disabled: !tooltip })
  const button = (
    <button type={type} aria-label={label} className={[styles.iconButton, className].filter(Boolean).join(' ')} {...rest}>
      {children}
    </button>
  )
  if (!tooltip) return button
  return (
    <span className={styles.anchor} {...tip.anchor}>
      {button}
      {tip.tooltip}
    </span>
  )
}
