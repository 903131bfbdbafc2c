// A light dialog holding one form (light/form.ts): its fields in one <form>, Cancel and OK at
// its foot, OK a danger button for an act that takes something away, held while it saves. The
// form's checks run on submit; only a form that passes them is sent. Enter in a field sends it
// unless enterSubmits is false (a form of several fields the library sent by OK only: a field
// changed and Enter pressed is not saved unseen). Its text fields and selects fill its width.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from './Button'
import { Dialog } from './Dialog'
import type { Form } from './form'
import styles from './FormDialog.module.css'

export interface FormDialogProps<T extends object> {
  title: ReactNode
  okText: string
  cancelText: string
  danger?: boolean
  busy: boolean
  form: Form<T>
  onSubmit: () => unknown
  onClose: () => void
  /** false: only the OK button sends it. */
  enterSubmits?: boolean
  width?: number
  /** More rules for the fields inside (a narrow quantity). */
  className?: string
  /** false: a click on the mask does not close it (Escape and Cancel still do). */
  maskClosable?: boolean
  /** The OK button held (nothing may be sent yet), and its test id. */
  okDisabled?: boolean
  okTestId?: string
  children: ReactNode
}

export function FormDialog<T extends object>({ title, okText, cancelText, danger, busy, form, onSubmit, onClose, enterSubmits = true, width, className, maskClosable, okDisabled, okTestId, children }: FormDialogProps<T>) {
  const { t } = useTranslation()
  return (
    <Dialog
      open
      title={title}
      width={width}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={busy}
      enterSubmits={enterSubmits}
      maskClosable={maskClosable}
      onSubmit={() => form.check() && void onSubmit()}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            {cancelText}
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy} disabled={okDisabled} data-testid={okTestId}>
            {okText}
          </Button>
        </>
      }
    >
      <div data-form={form.scope} className={[styles.form, className].filter(Boolean).join(' ')}>
        {children}
      </div>
    </Dialog>
  )
}
