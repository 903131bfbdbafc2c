// A form of the bill in a light dialog (payment, discount, refund, void, unmark: light/FormDialog):
// Enter in a field sends it, as the payment's always did; not in the discount's and the
// refund's, whose forms of several fields the library sent by OK only. Text fields bound to the
// form by name.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Field } from '../../../light/Field'
import type { Form } from '../../../light/form'
import { FormDialog as LightFormDialog, type FormDialogProps } from '../../../light/FormDialog'
import { Input, TextArea } from '../../../light/Input'
import styles from './bill.module.css'

/** The bill's: its Cancel, and its quantity field kept narrow. */
export function FormDialog<T extends object>(props: Omit<FormDialogProps<T>, 'cancelText' | 'className'>) {
  const { t } = useTranslation()
  return <LightFormDialog {...props} cancelText={t('bill.cancel')} className={styles.dialogForm} />
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
