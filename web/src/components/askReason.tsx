import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { useTranslation } from 'react-i18next'
import { Button } from '../light/Button'
import { Dialog } from '../light/Dialog'
import { TextArea } from '../light/Input'
import styles from './askReason.module.css'
import { IdScope } from '../lib/reactSemantics'

interface Ask {
  title: string
  label: string
  /** What to know before giving the reason, above it. */
  help?: string
  okText: string
  cancelText: string
  danger?: boolean
  /** Runs with the trimmed reason; its errors are the caller's to show (the dialog then closes). */
  onOk(reason: string): Promise<unknown>
}

function ReasonDialog({ ask, closeLabel, onClosed }: { ask: Ask; closeLabel: string; onClosed: () => void }) {
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const blank = !reason.trim()
  const ok = async () => {
    if (blank || busy) return
    setBusy(true)
    try {
      await ask.onOk(reason.trim())
    } catch {
      // The API client has already said what went wrong.
    }
    onClosed()
  }
  return (
    <Dialog
      open
      title={ask.title}
      closeLabel={closeLabel}
      onClose={onClosed}
      busy={busy}
      width={416}
      onSubmit={() => void ok()}
      footer={
        <>
          <Button onClick={onClosed} disabled={busy}>
            {ask.cancelText}
          </Button>
          <Button type="submit" variant={ask.danger ? 'danger' : 'primary'} disabled={blank} loading={busy}>
            {ask.okText}
          </Button>
        </>
      }
    >
      {ask.help && <p className={styles.help}>{ask.help}</p>}
      {/* A reason of several lines: Enter is a new line here, the button sends it. */}
      <TextArea aria-label={ask.label} placeholder={ask.label} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
    </Dialog>
  )
}

/**
 * A dialog that asks why (archiving, amending): focus starts in the reason, and the action
 * stays disabled until a reason is typed, so there is no error to raise for an empty one.
 * It is drawn in a root of its own (a function opens it, as the library's confirm did), so that
 * any screen can ask, light or still on the library; inside the frame's element, so that it
 * takes the size setting as the screen's own dialogs do.
 */
export function useAskReason() {
  const { t } = useTranslation()
  const closeLabel = t('app.icons.close')
  return (ask: Ask) => {
    const host = document.createElement('div')
    ;(document.querySelector('[data-emr-size]') ?? document.body).appendChild(host)
    const root = createRoot(host)
    // Unmounted after the event that closed it has run its course (a root does not unmount inside its own handler).
    const closed = () =>
      queueMicrotask(() => {
        root.unmount()
        host.remove()
      })
    root.render(
      <IdScope>
        <ReasonDialog ask={ask} closeLabel={closeLabel} onClosed={closed} />
      </IdScope>,
    )
  }
}
