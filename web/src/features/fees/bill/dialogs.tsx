import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { showFieldErrors } from '../../../lib/formErrors'
import { Checkbox } from '../../../light/Checkbox'
import { Field } from '../../../light/Field'
import { useForm, type Checks, type Form } from '../../../light/form'
import { RadioGroup } from '../../../light/RadioGroup'
import { Select } from '../../../light/Input'
import { useToast } from '../../../light/Toast'
import { unmarkLine } from '../api/unmarkLine'
import { updateBill } from '../api/updateBill'
import { updateLine } from '../api/updateLine'
import { refundBill } from '../api/refundBill'
import { voidBill } from '../api/voidBill'
import { METHODS, type Bill, type BillLine } from '../api/types'
import styles from './bill.module.css'
import { FormDialog, TextField } from './FormDialog'
import { AmountField, keepQuantity, QuantityField, useRequired } from './fields'
import type { Money } from './useMoney'

interface Props {
  bill: Bill
  money: Money
  onClose: () => void
  onDone: (b: Bill) => void
}

/** A form whose values are sent through write; the server's refusals show under the fields they name. */
function useSubmit<T extends object>(initial: T, checks: Checks<T>, write: (v: T, form: Form<T>) => Promise<Bill | undefined>, onDone: (b: Bill) => void) {
  const toast = useToast()
  const form = useForm<T>(initial, checks)
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    setBusy(true)
    try {
      const b = await write(form.values, form)
      if (b) onDone(b)
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    } finally {
      setBusy(false)
    }
  }
  return { form, busy, submit }
}

interface DiscountForm {
  kind: '' | 'percent' | 'amount'
  value: string
  reason: string
  notes: string
  quantity: string
}

/** A discount (percent or amount, with a reason): the whole bill's, with its notes, or one line's, with its quantity. */
export function DiscountModal({ bill, line, money, onClose, onDone }: Props & { line?: BillLine }) {
  const { t } = useTranslation()
  const required = useRequired()
  const target = line ?? bill
  const initial: DiscountForm = {
    kind: target.discount_kind as DiscountForm['kind'],
    value: target.discount_kind === 'percent' ? String(target.discount_value / 100) : target.discount_kind === 'amount' ? money.toMajor(target.discount_value) : '',
    reason: target.discount_reason,
    notes: bill.notes,
    quantity: line ? String(line.quantity) : '',
  }
  const { form, busy, submit } = useSubmit<DiscountForm>(
    initial,
    {
      quantity: (v) => (line ? required(v) : undefined),
      value: (v, all) => (all.kind !== '' ? required(v) : undefined),
      reason: (v, all) => (all.kind !== '' ? required(v) : undefined),
    },
    async (v, form) => {
      // A percent is sent in hundredths (20 % → 2000), an amount in minor units.
      const value = v.kind === '' ? 0 : v.kind === 'percent' ? parsePercent(v.value) : money.parse(v.value)
      if (value === undefined) {
        form.fail({ value: v.kind === 'percent' ? t('bill.badPercent') : t('bill.badAmount', { example: money.toMajor((35050 * 10 ** money.units) / 100) }) })
        return undefined
      }
      const discount = { discount_kind: v.kind, discount_value: value, discount_reason: v.kind === '' ? '' : v.reason }
      if (!line) return updateBill(bill, { ...discount, notes: v.notes })
      return updateLine(bill, line.id, { service_id: line.service_id, description: line.description, quantity: keepQuantity(v.quantity) ? Number(keepQuantity(v.quantity)) : line.quantity, unit_price: line.unit_price, ...discount })
    },
    onDone,
  )
  const kind = form.values.kind
  return (
    <FormDialog title={line ? t('bill.lineTitle', { item: line.description }) : t('bill.discountTitle')} okText={t('bill.save')} busy={busy} onClose={onClose} form={form} onSubmit={submit} enterSubmits={false}>
      {line && (
        <div className={styles.quantityOnly}>
          <QuantityField label={t('bill.quantity')} value={form.values.quantity} onChange={(q) => form.set('quantity', q)} error={form.errors.quantity} />
        </div>
      )}
      <RadioGroup
        legend={t('bill.discountKind')}
        look="button"
        value={kind}
        onChange={(k) => form.set('kind', k)}
        options={[
          { value: '' as const, label: t('bill.noDiscount') },
          { value: 'percent' as const, label: t('bill.percent') },
          { value: 'amount' as const, label: t('bill.amount') },
        ]}
      />
      {kind === 'amount' && <AmountField money={money} label={t('bill.amountIn', { currency: money.currency })} required value={form.values.value} onChange={(v) => form.set('value', v)} error={form.errors.value} />}
      {kind === 'percent' && <TextField form={form} name="value" label={t('bill.percentValue')} required maxLength={18} inputMode="decimal" />}
      {kind !== '' && <TextField form={form} name="reason" label={t('bill.discountReason')} help={t('bill.discountReasonHint')} required maxLength={500} />}
      {!line && <TextField form={form} name="notes" label={t('bill.notes')} maxLength={2000} rows={2} />}
    </FormDialog>
  )
}

/** "20" or "12.5" percent in hundredths of a percent; undefined when not a percent up to 100. */
export function parsePercent(text: string): number | undefined {
  const m = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim()) // 12.5 or 12,5
  if (!m) return undefined
  const n = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return n > 0 && n <= 10000 ? n : undefined
}

interface RefundForm {
  purpose: 'not given' | 'still owed'
  line: number | ''
  method: string
  amount: string
  reason: string
}

/** What the patient owes for line id of amount: less its part of the bill's own discount and what was credited on it. */
export function lineShare(bill: Bill, id: number, amount: number) {
  const discounted = bill.subtotal > 0 ? amount - Math.round((amount * bill.discount) / bill.subtotal) : amount
  const credited = bill.payments.filter((p) => p.line_id === id).reduce((sum, p) => sum + p.credit, 0)
  return Math.max(0, discounted - credited)
}

/** The cash a credit of credit gives back: only what was paid beyond the bill's new total (the server's rule, ADR 41). */
export function cashBack(bill: Bill, credit: number) {
  return Math.min(credit, Math.max(0, bill.paid + bill.credited + credit - bill.total))
}

/**
 * Gives money back, with a reason. For a service not given the bill is credited first and
 * cash goes back only for what was paid beyond its new total (on an unpaid bill, a credit
 * note with no cash); money given back to be taken another way (never more than was paid)
 * leaves the bill owed again.
 */
export function RefundModal({ bill, money, onClose, onDone }: Props) {
  const { t } = useTranslation()
  const required = useRequired()
  const { form, busy, submit } = useSubmit<RefundForm>(
    { purpose: 'not given', line: '', method: 'cash', amount: money.toMajor(bill.paid), reason: '' },
    { amount: (v) => required(v) || money.check(v), reason: required },
    async (v) =>
      (
        await refundBill(bill, {
          method: v.method,
          amount: money.parse(v.amount) ?? 0,
          reason: v.reason,
          still_owed: v.purpose === 'still owed',
          line_id: v.purpose === 'not given' && v.line !== '' ? v.line : null,
        })
      ).bill as Bill,
    onDone,
  )
  const { purpose } = form.values
  const credit = money.parse(form.values.amount) ?? 0
  const pickLine = (id: number | '') => {
    const l = bill.lines.find((x) => x.id === id)
    form.update({ line: id, ...(l && { amount: money.toMajor(lineShare(bill, l.id, l.amount)) }) })
  }
  return (
    <FormDialog title={t('bill.refund')} okText={t('bill.refund')} danger busy={busy} onClose={onClose} form={form} onSubmit={submit} enterSubmits={false}>
      <RadioGroup
        legend={t('bill.refundPurpose')}
        value={purpose}
        onChange={(p) => form.set('purpose', p)}
        options={[
          { value: 'not given' as const, label: t('bill.refundNotGiven') },
          { value: 'still owed' as const, label: t('bill.refundStillOwedOption') },
        ]}
      />
      {purpose === 'not given' && bill.lines.length > 1 && (
        <Field label={t('bill.refundService')} help={t('bill.refundServiceHint')}>
          {(c) => <Select<number | ''> {...c} value={form.values.line} onChange={pickLine} options={[{ value: '', label: '' }, ...bill.lines.map((l) => ({ value: l.id, label: `${l.description} · ${money.format(l.amount)}` }))]} />}
        </Field>
      )}
      <RadioGroup legend={t('bill.method')} look="button" value={form.values.method} onChange={(m) => form.set('method', m)} options={METHODS.map((m) => ({ value: m, label: t(`bill.methods.${m}`) }))} />
      <AmountField
        money={money}
        label={t('bill.amountIn', { currency: money.currency })}
        required
        help={purpose === 'not given' ? t('bill.creditHint', { cash: money.format(cashBack(bill, credit)) }) : t('bill.refundHint', { paid: money.format(bill.paid) })}
        value={form.values.amount}
        onChange={(a) => form.set('amount', a)}
        error={form.errors.amount}
      />
      <TextField form={form} name="reason" label={t('bill.reason')} required maxLength={500} rows={2} />
    </FormDialog>
  )
}

interface VoidForm {
  reason: string
  replace: boolean
}

/** Withdraws the bill with a reason and, usually, writes its replacement to correct. */
export function VoidModal({ bill, onClose, onDone }: Omit<Props, 'money'>) {
  const { t } = useTranslation()
  const required = useRequired()
  const { form, busy, submit } = useSubmit<VoidForm>({ reason: '', replace: true }, { reason: required }, (v) => voidBill(bill, v.reason, v.replace), onDone)
  return (
    <FormDialog title={t('bill.voidTitle', { number: bill.number })} okText={t('bill.void')} danger busy={busy} onClose={onClose} form={form} onSubmit={submit}>
      <p>{t('bill.voidHint')}</p>
      <TextField form={form} name="reason" label={t('bill.reason')} required maxLength={500} rows={2} />
      <Checkbox checked={form.values.replace} onChange={(on) => form.set('replace', on)}>
        {t('bill.replace')}
      </Checkbox>
    </FormDialog>
  )
}

/**
 * A supervisor takes a wrong hand mark off a line (the cashier's review, M3): the line stays
 * with its amount, the test shows as not charged again. A bill changed meanwhile (409) is
 * read again and the supervisor told, rather than unmarking what she has not seen.
 */
export function UnmarkModal({ bill, line, onClose, onDone, onStale }: Omit<Props, 'money'> & { line: BillLine; onStale: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const required = useRequired()
  const { form, busy, submit } = useSubmit<{ reason: string }>(
    { reason: '' },
    { reason: required },
    async (v) => {
      try {
        const b = await unmarkLine(bill, line.id, v.reason)
        toast.success(t('bill.unmarked'))
        return b
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) {
          toast.warning(t('bill.unmarkStale'))
          onStale()
          return undefined
        }
        throw e
      }
    },
    onDone,
  )
  return (
    <FormDialog title={t('bill.unmarkOf', { item: line.description })} okText={t('bill.unmark')} danger busy={busy} onClose={onClose} form={form} onSubmit={submit}>
      <p>{t('bill.unmarkHint')}</p>
      <TextField form={form} name="reason" label={t('bill.reason')} required maxLength={500} rows={2} />
    </FormDialog>
  )
}
