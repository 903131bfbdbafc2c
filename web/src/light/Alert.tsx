// A light notice, drawn as Ant Design's alert with its icon and a description: info, warning or
// error, with an optional action at its end. role="alert" only where it must interrupt (a
// critical result); other notices are read in the page's order.
import type { ReactNode } from 'react'
import styles from './Alert.module.css'

export interface AlertProps {
  type: 'info' | 'warning' | 'error'
  title: ReactNode
  description?: ReactNode
  action?: ReactNode
  role?: 'alert'
  'data-testid'?: string
}

const marks = { info: 'i', warning: '!', error: '✕' }

export function Alert({ type, title, description, action, role, 'data-testid': testId }: AlertProps) {
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
    </div>
  )
}
