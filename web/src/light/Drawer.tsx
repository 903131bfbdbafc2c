// A light drawer: a dialog (role="dialog", aria-modal) that slides in from the right over a
// mask. It takes focus when it opens, keeps Tab inside itself, closes on Escape, on the mask
// and on its close button, and gives focus back to what had it before.
import { useEffect, useId, useRef, type ReactNode } from 'react'
import styles from './Drawer.module.css'
import { cycleTab } from './focus'

export interface DrawerProps {
  open: boolean
  title: string
  onClose: () => void
  /** The close button's name. */
  closeLabel: string
  width?: number
  children: ReactNode
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export function Drawer({ open, title, onClose, closeLabel, width = 260, children }: DrawerProps) {
  const id = useId()
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const before = document.activeElement as HTMLElement | null
    panel.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus()
    return () => before?.focus()
  }, [open])
  // Escape closes it wherever focus is: after a click on its words, focus is on <body>, not in
  // the panel. A control inside that uses Escape itself (an open menu) stops the key first.
  const closeRef = useRef(onClose)
  useEffect(() => {
    closeRef.current = onClose
  })
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeRef.current()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
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
        // Tab and Shift+Tab go round inside the drawer.
        onKeyDown={(e) => cycleTab(e, [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])])}
      >
        <div className={styles.header}>
          <button type="button" className={styles.close} aria-label={closeLabel} onClick={onClose}>
            <svg viewBox="64 64 896 896" width="1em" height="1em" fill="currentColor" aria-hidden focusable="false">
              <path d="M563.8 512l262.5-312.9c4.4-5.2.7-13.1-6.1-13.1h-79.8c-4.7 0-9.2 2.1-12.3 5.7L511.6 449.8 295.1 191.7c-3-3.6-7.5-5.7-12.3-5.7H203c-6.8 0-10.5 7.9-6.1 13.1L459.4 512 196.9 824.9A7.95 7.95 0 00203 838h79.8c4.7 0 9.2-2.1 12.3-5.7l216.5-258.1 216.5 258.1c3 3.6 7.5 5.7 12.3 5.7h79.8c6.8 0 10.5-7.9 6.1-13.1L563.8 512z" />
            </svg>
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
