// A light drawer: a dialog (role="dialog", aria-modal) that slides in from the right over a
// mask. It takes focus when it opens, keeps Tab inside itself, closes on Escape, on the mask
// and on its close button, and gives focus back to what had it before.
import { useId, type ReactNode } from 'react'
import styles from './Drawer.module.css'
import { DismissIcon } from './icons'
import { useModal } from './modal'

export interface DrawerProps {
  open: boolean
  title: string
  onClose: () => void
  /** The close button's name. */
  closeLabel: string
  /** Pixels, or a length ("100%" on a phone); never wider than the window. */
  width?: number | string
  children: ReactNode
}

export function Drawer({ open, title, onClose, closeLabel, width = 260, children }: DrawerProps) {
  const id = useId()
  const { panel, onKeyDown } = useModal<HTMLDivElement>(open, onClose)
  if (!open) return null

  return (
    <div className={styles.root}>
      <div className={styles.mask} onClick={onClose} aria-hidden />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        className={styles.panel}
        style={{ width, maxWidth: '100vw' }}
        onKeyDown={onKeyDown}
      >
        <div className={styles.header}>
          <button type="button" className={styles.close} aria-label={closeLabel} onClick={onClose}>
            <DismissIcon />
          </button>
          <h2 id={`${id}-title`} className={styles.title}>
            {title}
          </h2>
        </div>
        <div className={styles.body}>{children}</div>
      </div>
    </div>
  )
}
