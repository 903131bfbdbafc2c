// A light notice, drawn as Ant Design's alert with its icon and a description: info, success,
// warning or error, with an optional action at its end and, given onClose, a close button
// (named by closeLabel). role="alert" only where it must interrupt (a critical result); other
// notices are read in the page's order.
import type { ReactNode } from 'react'
import styles from './Alert.module.css'
import { DismissIcon } from './icons'

export interface AlertProps {
  type: 'info' | 'success' | 'warning' | 'error'
  title: ReactNode
  description?: ReactNode
  action?: ReactNode
  role?: 'alert'
  /** Shows a close button; closeLabel names it. */
  onClose?: () => void
  closeLabel?: string
  'data-testid'?: string
}

const marks = { info: 'i', success: '✓', warning: '!', error: '✕' }

export function Alert({ type, title, description, action, role, onClose, closeLabel, 'data-testid': testId }: AlertProps) {
  return (
    <div className={`${styles.alert} ${styles[type]}`} role={role} data-testid={testId}>
      <span className={styles.mark} aria-hidden>
        {marks[type]}
      </span>
      <div className={styles.content}>
        <div className={description ? styles.titleWithText : undefined}>{title}</div>
        {description && <div>{description}</div>}
      </div>
      {action && <div className={styles.action}>{action}</div>}
      {onClose && (
        <button type="button" className={styles.close} aria-label={closeLabel} onClick={onClose}>
          <DismissIcon />
        </button>
      )}
    </div>
  )
}
