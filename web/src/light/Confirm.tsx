// A light confirmation: a small alert dialog (Dialog, role="alertdialog") that asks one question
// before an act that counts (finalise a bill, remove a line, charge a service twice), with the
// question as its title, an optional line of detail, and Cancel and OK at its foot. It replaces
// the library's Popconfirm and modal.confirm. OK may return a promise: the dialog is held
// (busy) until it settles.
import { useState, type ReactNode } from 'react'
import { Button } from './Button'
import { Dialog } from './Dialog'

export interface ConfirmProps {
  open: boolean
  /** The question. */
  title: ReactNode
  content?: ReactNode
  okText: string
  cancelText: string
  closeLabel: string
  /** OK as a danger button (an act that takes something away). */
  danger?: boolean
  onOk: () => unknown
  onCancel: () => void
  /** A confirmation that shows what it acts on (a table of figures) is a plain dialog, wider. */
  role?: 'dialog' | 'alertdialog'
  width?: number
}

export function Confirm({ open, title, content, okText, cancelText, closeLabel, danger, onOk, onCancel, role = 'alertdialog', width = 416 }: ConfirmProps) {
  const [busy, setBusy] = useState(false)
  const ok = async () => {
    setBusy(true)
    try {
      await onOk()
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={open}
      role={role}
      title={title}
      width={width}
      closeLabel={closeLabel}
      onClose={onCancel}
      busy={busy}
      footer={
        <>
          {/* Focus opens on the answer that changes nothing (the APG's alert dialog): Enter does not charge twice or remove. */}
          <Button onClick={onCancel} disabled={busy} data-autofocus>
            {cancelText}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} loading={busy} onClick={() => void ok()}>
            {okText}
          </Button>
        </>
      }
    >
      {content}
    </Dialog>
  )
}
