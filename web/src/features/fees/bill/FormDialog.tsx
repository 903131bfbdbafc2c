// A form of the bill in a light dialog (payment, discount, refund, void, unmark): its fields in
// one <form> (Enter in a field sends it, as the payment's always did; not in the discount's and
// the refund's, whose forms of several fields the library sent by OK only: a discount changed
// and Enter pressed is not saved unseen), Cancel and OK at its foot, OK
// a danger button for an act that takes money or a bill away, held while it saves. The form's
// checks run on submit; only a form that passes them is sent. Text fields bound to the form by name.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../light/Button'
import { Dialog } from '../../../light/Dialog'
import { Field } from '../../../light/Field'
import type { Form } from '../../../light/form'
import { Input, TextArea } from '../../../light/Input'
import styles from './bill.module.css'

export interface FormDialogProps<T extends object> {
  title: ReactNode
  okText: string
  danger?: boolean
  busy: boolean
  form: Form<T>
  onSubmit: () => unknown
  onClose: () => void
  /** false: only the OK button sends it (the discount, the refund). */
  enterSubmits?: boolean
  children: ReactNode
}

export function FormDialog<T extends object>({ title, okText, danger, busy, form, onSubmit, onClose, enterSubmits = true, children }: FormDialogProps<T>) {
  const { t } = useTranslation()
  return (
    <Dialog
      open
      title={title}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={busy}
      enterSubmits={enterSubmits}
      onSubmit={() => form.check() && void onSubmit()}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            {t('bill.cancel')}
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy}>
            {okText}
          </Button>
        </>
      }
    >
      <div data-form={form.scope} className={styles.dialogForm}>
        {children}
      </div>
    </Dialog>
  )
}

type StringKey<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T]

interface TextFieldProps<T extends object> {
  form: Form<T>
  name: StringKey<T>
  label: ReactNode
  help?: ReactNode
  required?: boolean
  maxLength: number
  autoComplete?: string
  inputMode?: 'decimal'
  /** A text of several lines (a reason, notes): rows it starts with. */
  rows?: number
}

/** A text field of the form, by name: its value, its message, its label and help. */
export function TextField<T extends object>({ form, name, label, help, required, maxLength, autoComplete, inputMode, rows }: TextFieldProps<T>) {
  const value = form.values[name] as string
  const set = (v: string) => form.set(name, v as T[typeof name])
  return (
    <Field label={label} help={help} required={required} error={form.errors[name]}>
      {(c) => (rows ? <TextArea {...c} rows={rows} maxLength={maxLength} value={value} onChange={(e) => set(e.target.value)} /> : <Input {...c} maxLength={maxLength} autoComplete={autoComplete} inputMode={inputMode} value={value} onChange={(e) => set(e.target.value)} />)}
    </Field>
  )
}
