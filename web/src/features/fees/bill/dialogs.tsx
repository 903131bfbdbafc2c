import { App, Checkbox, Form, Input, InputNumber, Modal, Radio, Select, type FormInstance } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { focusFirstField } from '../../../components/focusFirstField'
import { showFormErrors } from '../../../lib/formErrors'
import { ApiError } from '../../../lib/api'
import { unmarkLine } from '../api/unmarkLine'
import { updateBill } from '../api/updateBill'
import { updateLine } from '../api/updateLine'
import { refundBill } from '../api/refundBill'
import { voidBill } from '../api/voidBill'
import { METHODS, type Bill, type BillLine } from '../api/types'
import type { Money } from './useMoney'
import { FieldNumberNote } from '../../../components/NumberInput'

interface Props {
  bill: Bill
  money: Money
  onClose: () => void
  onDone: (b: Bill) => void
}

/** Sends form's values through write; the server's refusals show under the fields they name. */
function useSubmit<T>(write: (v: T, form: FormInstance<T>) => Promise<Bill | undefined>, onDone: (b: Bill) => void) {
  const { message } = App.useApp()
  const [form] = Form.useForm<T>()
  const [busy, setBusy] = useState(false)
  const submit = async (v: T) => {
    setBusy(true)
    try {
      const b = await write(v, form)
      if (b) onDone(b)
    } catch (e) {
      showFormErrors(form, message, e)
    } finally {
      setBusy(false)
    }
  }
  return { form, busy, submit }
}

interface DiscountForm {
  kind: '' | 'percent' | 'amount'
  value?: string
  reason?: string
  notes?: string
  quantity?: number
}

/** A discount (percent or amount, with a reason): the whole bill's, with its notes, or one line's, with its quantity. */
export function DiscountModal({ bill, line, money, onClose, onDone }: Props & { line?: BillLine }) {
  const { t } = useTranslation()
  const target = line ?? bill
  const { form, busy, submit } = useSubmit<DiscountForm>(async (v, form) => {
    // A percent is sent in hundredths (20 % → 2000), an amount in minor units.
    const value = v.kind === '' ? 0 : v.kind === 'percent' ? parsePercent(v.value ?? '') : money.parse(v.value ?? '')
    if (value === undefined) {
      form.setFields([{ name: 'value', errors: [v.kind === 'percent' ? t('bill.badPercent') : t('bill.badAmount', { example: money.toMajor(35050 * 10 ** money.units / 100) })] }])
      return undefined
    }
    const discount = { discount_kind: v.kind, discount_value: value, discount_reason: v.kind === '' ? '' : (v.reason ?? '') }
    if (!line) return updateBill(bill, { ...discount, notes: v.notes ?? '' })
    return updateLine(bill, line.id, { service_id: line.service_id, description: line.description, quantity: v.quantity ?? line.quantity, unit_price: line.unit_price, ...discount })
  }, onDone)
  const kind = Form.useWatch('kind', form) ?? target.discount_kind
  const initial: DiscountForm = {
    kind: target.discount_kind as DiscountForm['kind'],
    value: target.discount_kind === 'percent' ? String(target.discount_value / 100) : target.discount_kind === 'amount' ? money.toMajor(target.discount_value) : '',
    reason: target.discount_reason,
    notes: bill.notes,
    quantity: line?.quantity,
  }
  return (
    <Modal
      open
      title={line ? t('bill.lineTitle', { item: line.description }) : t('bill.discountTitle')}
      cancelText={t('bill.cancel')} onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('bill.save')}
      confirmLoading={busy}
      afterOpenChange={focusFirstField}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)}>
        {line && (
          <Form.Item name="quantity" label={t('bill.quantity')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber min={1} max={999} precision={0} />
          </Form.Item>
        )}
        <Form.Item name="kind" label={t('bill.discountKind')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: '', label: t('bill.noDiscount') },
              { value: 'percent', label: t('bill.percent') },
              { value: 'amount', label: t('bill.amount') },
            ]}
          />
        </Form.Item>
        {kind !== '' && (
          <>
            <Form.Item name="value" label={kind === 'percent' ? t('bill.percentValue') : t('bill.amountIn', { currency: money.currency })} rules={[{ required: true, whitespace: true, message: t('validation.required') }]} extra={kind === 'amount' ? <FieldNumberNote name="value" amountUnits={money.units} unit={money.currency} /> : undefined}>
              <Input inputMode="decimal" maxLength={18} />
            </Form.Item>
            <Form.Item name="reason" label={t('bill.discountReason')} extra={t('bill.discountReasonHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
              <Input maxLength={500} />
            </Form.Item>
          </>
        )}
        {!line && (
          <Form.Item name="notes" label={t('bill.notes')}>
            <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 5 }} />
          </Form.Item>
        )}
      </Form>
    </Modal>
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
  line?: number
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
  const { form, busy, submit } = useSubmit<RefundForm>(
    async (v) =>
      (
        await refundBill(bill, {
          method: v.method,
          amount: money.parse(v.amount) ?? 0,
          reason: v.reason,
          still_owed: v.purpose === 'still owed',
          line_id: v.purpose === 'not given' ? (v.line ?? null) : null,
        })
      ).bill as Bill,
    onDone,
  )
  const purpose = Form.useWatch('purpose', form) ?? 'not given'
  const credit = money.parse(Form.useWatch('amount', form) ?? '') ?? 0
  const pickLine = (id?: number) => {
    const l = bill.lines.find((x) => x.id === id)
    if (l) form.setFieldValue('amount', money.toMajor(lineShare(bill, l.id, l.amount)))
  }
  return (
    <Modal open title={t('bill.refund')} cancelText={t('bill.cancel')} onCancel={onClose} onOk={() => form.submit()} okText={t('bill.refund')} okButtonProps={{ danger: true }} confirmLoading={busy} afterOpenChange={focusFirstField} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ purpose: 'not given', method: 'cash', amount: money.toMajor(bill.paid) }} onFinish={(v) => void submit(v)}>
        <Form.Item name="purpose" label={t('bill.refundPurpose')}>
          <Radio.Group
            options={[
              { value: 'not given', label: t('bill.refundNotGiven') },
              { value: 'still owed', label: t('bill.refundStillOwedOption') },
            ]}
          />
        </Form.Item>
        {purpose === 'not given' && bill.lines.length > 1 && (
          <Form.Item name="line" label={t('bill.refundService')} extra={t('bill.refundServiceHint')}>
            <Select allowClear onChange={pickLine} options={bill.lines.map((l) => ({ value: l.id, label: `${l.description} · ${money.format(l.amount)}` }))} />
          </Form.Item>
        )}
        <Form.Item name="method" label={t('bill.method')}>
          <Radio.Group optionType="button" options={METHODS.map((m) => ({ value: m, label: t(`bill.methods.${m}`) }))} />
        </Form.Item>
        <Form.Item name="amount" label={t('bill.amountIn', { currency: money.currency })} extra={<>{purpose === 'not given' ? t('bill.creditHint', { cash: money.format(cashBack(bill, credit)) }) : t('bill.refundHint', { paid: money.format(bill.paid) })}<FieldNumberNote name="amount" amountUnits={money.units} unit={money.currency} /></>} rules={[{ required: true, whitespace: true, message: t('validation.required') }, money.rule()]}>
          <Input inputMode="decimal" maxLength={18} />
        </Form.Item>
        <Form.Item name="reason" label={t('bill.reason')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

interface VoidForm {
  reason: string
  replace: boolean
}

/** Withdraws the bill with a reason and, usually, writes its replacement to correct. */
export function VoidModal({ bill, onClose, onDone }: Omit<Props, 'money'>) {
  const { t } = useTranslation()
  const { form, busy, submit } = useSubmit<VoidForm>((v) => voidBill(bill, v.reason, v.replace), onDone)
  return (
    <Modal open title={t('bill.voidTitle', { number: bill.number })} cancelText={t('bill.cancel')} onCancel={onClose} onOk={() => form.submit()} okText={t('bill.void')} okButtonProps={{ danger: true }} confirmLoading={busy} afterOpenChange={focusFirstField} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ replace: true }} onFinish={(v) => void submit(v)}>
        <p>{t('bill.voidHint')}</p>
        <Form.Item name="reason" label={t('bill.reason')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <Form.Item name="replace" valuePropName="checked">
          <Checkbox>{t('bill.replace')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  )
}

/**
 * A supervisor takes a wrong hand mark off a line (the cashier's review, M3): the line stays
 * with its amount, the test shows as not charged again. A bill changed meanwhile (409) is
 * read again and the supervisor told, rather than unmarking what she has not seen.
 */
export function UnmarkModal({ bill, line, onClose, onDone, onStale }: Omit<Props, 'money'> & { line: BillLine; onStale: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { form, busy, submit } = useSubmit<{ reason: string }>(async (v) => {
    try {
      const b = await unmarkLine(bill, line.id, v.reason)
      void message.success(t('bill.unmarked'))
      return b
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        void message.warning(t('bill.unmarkStale'))
        onStale()
        return undefined
      }
      throw e
    }
  }, onDone)
  return (
    <Modal open title={t('bill.unmarkOf', { item: line.description })} cancelText={t('bill.cancel')} onCancel={onClose} onOk={() => form.submit()} okText={t('bill.unmark')} okButtonProps={{ danger: true }} confirmLoading={busy} afterOpenChange={focusFirstField} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
        <p>{t('bill.unmarkHint')}</p>
        <Form.Item name="reason" label={t('bill.reason')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
