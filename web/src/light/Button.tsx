// A light button: a native <button>, plain, primary or danger, with an optional icon before its text.
import type { ButtonHTMLAttributes, ReactNode } from 'react'
import styles from './Button.module.css'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** primary: the screen's main action; danger: one that cannot be taken back (cancel, void). */
  variant?: 'default' | 'primary' | 'danger'
  /** Drawn before the text, hidden from screen readers (the text names the button). */
  icon?: ReactNode
  /** The library's small button (24 px, whatever the size setting): a table row's actions. */
  small?: boolean
}

/** The class names of a light button, for a link drawn as one. */
export const buttonClass = (variant: ButtonProps['variant'] = 'default', small = false) =>
  [styles.button, variant === 'default' ? '' : styles[variant], small ? styles.small : ''].filter(Boolean).join(' ')

export function Button({ variant, icon, small, className, children, type = 'button', ...rest }: ButtonProps) {
  return (
    <button type={type} className={[buttonClass(variant, small), className].filter(Boolean).join(' ')} {...rest}>
      {icon && (
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
      )}
      {children}
    </button>
  )
}
