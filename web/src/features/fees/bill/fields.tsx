// The bill's light form fields, each the same in every form of the bill: an amount of money (its
// note under it saying how it was read: "1 500,50" in Russian), a quantity of 1 to 999 (whole,
// as the library's number field kept it), and a text that must not be empty.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Field } from '../../../light/Field'
import { Input } from '../../../light/Input'
import { AmountInput, NumberNote } from '../../../light/NumberInput'
import type { Money } from './useMoney'

/** The message of an empty required field (spaces alone are empty). */
export function useRequired() {
  const { t } = useTranslation()
  return (v: string | undefined) => (v?.trim() ? undefined : t('validation.required'))
}

interface FieldOf<V> {
  label: ReactNode
  value: V
  onChange: (v: V) => void
  error?: string
  help?: ReactNode
  required?: boolean
  className?: string
}

/** An amount of money in the bill's currency, with the note of how it was read. */
export function AmountField({ money, label, value, onChange, error, help, required, className }: FieldOf<string> & { money: Money }) {
  return (
    <Field label={label} error={error} required={required} className={className} help={<>{help}<NumberNote text={value} amountUnits={money.units} unit={money.currency} /></>}>
      {(c) => <AmountInput {...c} value={value} onChange={onChange} />}
    </Field>
  )
}

/** A typed quantity kept whole and inside 1–999, as the library's number field kept it; '' when none was typed. */
export const keepQuantity = (v: string) => (v.trim() === '' || Number.isNaN(Number(v)) ? '' : String(Math.min(999, Math.max(1, Math.round(Number(v))))))

/** A quantity, 1 to 999: a number typed is rounded and kept inside them as the field is left and as the form is sent (keepQuantity). */
export function QuantityField({ label, value, onChange, error, className }: FieldOf<string>) {
  return (
    <Field label={label} error={error} required className={className}>
      {(c) => (
        <Input
          {...c}
          type="number"
          inputMode="numeric"
          min={1}
          max={999}
          step={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={(e) => onChange(keepQuantity(e.target.value))}
          // A turn of the mouse wheel over a focused number field would change it unseen.
          onWheel={(e) => e.currentTarget.blur()}
        />
      )}
    </Field>
  )
}
