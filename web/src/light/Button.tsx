// A light button: a native <button>, plain, primary or danger (filled, or outlined as the
// library's `danger` default button), text or link, in two sizes, with an optional icon before
// its text; `loading` shows a turning ring in the icon's place and holds the button while its
// action runs (aria-busy, disabled), as the library's did.
import type { ButtonHTMLAttributes, ReactNode } from 'react'
import styles from './Button.module.css'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** primary: the screen's main action; danger: one that cannot be taken back (cancel, void). */
  variant?: 'default' | 'primary' | 'danger' | 'dangerOutline' | 'text' | 'dangerText' | 'link'
  /** small: the library's small button (24 px), for a row's or a notice's action. */
  size?: 'small'
  loading?: boolean
  /** Drawn before the text, hidden from screen readers (the text names the button). */
  icon?: ReactNode
}

/** The class names of a light button, for a link drawn as one. */
export const buttonClass = (variant: ButtonProps['variant'] = 'default', small = false) =>
  [styles.button, variant === 'default' ? '' : styles[variant], small ? styles.small : ''].filter(Boolean).join(' ')

export function Button({ variant, size, loading, icon, className, children, type = 'button', disabled, onClick, ...rest }: ButtonProps) {
  // A loading button stays focusable (aria-disabled, clicks ignored): disabling the button that
  // has focus (a dialog's OK as it saves) would drop focus to the page behind.
  return (
    <button
      type={type}
      className={[buttonClass(variant, size === 'small'), children ? '' : styles.iconOnly, loading ? styles.busy : '', className].filter(Boolean).join(' ')}
      disabled={disabled}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      onClick={(e) => {
        if (loading || disabled) e.preventDefault()
        else onClick?.(e)
      }}
      {...rest}
    >
      {(icon || loading) && (
        <span className={styles.icon} aria-hidden>
          {loading ? <span className={styles.loading} /> : icon}
        </span>
      )}
      {children}
    </button>
  )
}
