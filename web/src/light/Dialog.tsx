// A light dialog (the APG's modal dialog): a panel in the middle of the window over a mask,
// named by its title, with a close button and an optional row of actions at its foot. It takes
// focus as it opens (the first field, else the first control), keeps Tab inside itself, closes
// on Escape, its close button and the mask, and gives focus back to what opened it (modal.ts).
// A dialog with a form puts its fields and actions inside one <form> (`onSubmit`), so Enter in
// a field submits it as a browser's form does.
import { useId, type FormEvent, type ReactNode } from 'react'
import styles from './Dialog.module.css'
import { DismissIcon } from './icons'
import { useModal } from './modal'

export interface DialogProps {
  open: boolean
  title: ReactNode
  onClose: () => void
  /** The close button's name. */
  closeLabel: string
  /** The actions at the foot (a Cancel and an OK button, as a rule). */
  footer?: ReactNode
  /** Makes the body and the foot one form; the OK button is then type="submit". */
  onSubmit?: () => void
  /** false: Enter in a field does not send the form, only its OK button does (a money dialog of several fields). */
  enterSubmits?: boolean
  width?: number
  /** Held open while its action runs: Escape, the mask and the close button do nothing. */
  busy?: boolean
  /** Named by an alert dialog's role (a question that must be answered: Confirm). */
  role?: 'dialog' | 'alertdialog'
  /** false: a click on the mask does not close it (Escape and the close button still do). */
  maskClosable?: boolean
  children: ReactNode
}

export function Dialog({ open, title, onClose, closeLabel, footer, onSubmit, enterSubmits = true, width = 520, busy, role = 'dialog', maskClosable = true, children }: DialogProps) {
  const id = useId()
  const close = () => {
    if (!busy) onClose()
  }
  const { panel, onKeyDown } = useModal<HTMLDivElement>(open, close, true)
  if (!open) return null
  const inner = (
    <>
      <div className={styles.body} id={`${id}-body`}>
        {children}
      </div>
      {footer && <div className={styles.footer}>{footer}</div>}
    </>
  )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!busy) onSubmit?.()
  }
  return (
    <div className={styles.root}>
      <div className={styles.mask} onClick={maskClosable ? close : undefined} aria-hidden />
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={role === 'alertdialog' ? `${id}-body` : undefined}
        aria-busy={busy || undefined}
        className={styles.panel}
        style={{ width }}
        onKeyDown={onKeyDown}
      >
        <div className={styles.header}>
          <h2 id={`${id}-title`} className={styles.title}>
            {title}
          </h2>
          <button type="button" className={styles.close} aria-label={closeLabel} onClick={close} disabled={busy}>
            <DismissIcon />
          </button>
        </div>
        {onSubmit ? (
          <form
            className={styles.form}
            onSubmit={submit}
            noValidate
            onKeyDown={(e) => {
              // A form sent by its button only: Enter in a field or on a choice (a radio) sends nothing.
              if (!enterSubmits && e.key === 'Enter' && e.target instanceof HTMLInputElement && !['submit', 'button', 'checkbox'].includes(e.target.type)) e.preventDefault()
            }}
          >
            {inner}
          </form>
        ) : (
          inner
        )}
      </div>
    </div>
  )
}
