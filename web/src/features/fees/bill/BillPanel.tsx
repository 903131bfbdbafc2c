import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { useCan } from '../../../lib/auth/can'
import { useMediaQuery } from '../../../lib/media'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { Confirm } from '../../../light/Confirm'
import { Descriptions } from '../../../light/Descriptions'
import { DeleteIcon, EditIcon, EmptyImage, PrinterIcon } from '../../../light/icons'
import { Spin } from '../../../light/Spin'
import { Table, type Column } from '../../../light/Table'
import { useToast } from '../../../light/Toast'
import { finaliseBill } from '../api/finaliseBill'
import { removeLine } from '../api/removeLine'
import { useFeeSettings } from '../api/feeSettings'
import { useBill, useBillChanged, useRefreshBills } from '../api/getBill'
import { useVisitBill } from '../api/getVisitBill'
import type { Bill, BillLine, Document, Payment } from '../api/types'
import { AddCharge } from './AddCharge'
import { OrderCharges } from './OrderCharges'
import { DiscountModal, RefundModal, UnmarkModal, VoidModal } from './dialogs'
import { BillStatus } from './BillStatus'
import { Payments } from './Payments'
import { PaymentModal } from './PaymentModal'
import styles from './bill.module.css'
import { useMoney, type Money } from './useMoney'

type Dialog = 'pay' | 'discount' | 'refund' | 'void' | 'finalise' | BillLine | { unmark: BillLine } | { remove: BillLine }

/** A visit's bill: its charges for the doctor and the front desk, and from the front desk its discount, finalising, payments and prints. */
export function VisitBill({ appointmentId, closed }: { appointmentId: number; closed: boolean }) {
  const mayRead = [useCan('record charges'), useCan('record payment'), useCan('view financial reports')].some(Boolean)
  if (!mayRead) return null
  return <VisitBillOf appointmentId={appointmentId} closed={closed} />
}

function VisitBillOf({ appointmentId, closed }: { appointmentId: number; closed: boolean }) {
  const { data: bill, isLoading } = useVisitBill(appointmentId)
  if (isLoading) return <Spin />
  return <BillCard bill={bill ?? undefined} appointmentId={appointmentId} closed={closed} />
}

/** A bill by its id (from a report, or a replaced bill). */
export function BillById({ id }: { id: number }) {
  const { data: bill, isLoading, error } = useBill(id)
  if (isLoading) return <Spin />
  if (error || !bill)
    return (
      <div className={styles.empty}>
        <EmptyImage />
        <div>{error?.message}</div>
      </div>
    )
  return <BillCard bill={bill} closed={false} />
}

function BillCard({ bill: read, appointmentId, closed }: { bill?: Bill; appointmentId?: number; closed: boolean }) {
  // A visit under way shows the bill it will have (its consultation fee) before the first
  // charge writes it: shown, not yet a bill to act on.
  const preview = read?.preview ? read : undefined
  const bill = preview ? undefined : read
  const { t } = useTranslation()
  const toast = useToast()
  const billChanged = useBillChanged()
  const refresh = useRefreshBills()
  const navigate = useNavigate()
  const { data: settings } = useFeeSettings()
  const shown = read
  const money = useMoney(shown?.currency ?? settings?.currency ?? 'USD', shown?.minor_units ?? settings?.minor_units ?? 2)
  const canCharge = useCan('record charges')
  const canPay = useCan('record payment')
  const canVoid = useCan('void bill')
  const [dialog, setDialog] = useState<Dialog>()
  const [justPaid, setJustPaid] = useState<Payment>()

  // A write answers the bill as it now is: shown at once, and every other view of it re-read.
  const changed = (b: Bill) => {
    setDialog(undefined)
    billChanged(b)
  }
  const run = async (write: () => Promise<Bill>, done?: string) => {
    try {
      changed(await write())
      if (done) toast.success(done)
    } catch {
      // the app's error toast has said why
    }
  }
  const print = (doc: Document, payment?: number) => bill && navigate(`/bills/${bill.id}/print/${doc}${payment ? `?payment=${payment}` : ''}`)

  const draft = !bill || bill.status === 'draft'
  const charging = draft && canCharge && !closed
  const close = () => setDialog(undefined)
  // The line table's actions, the same from one render to the next (its rows are memoised).
  const askRemove = useCallback((l: BillLine) => setDialog({ remove: l }), [])
  const mayUnmark = bill && canVoid && bill.status !== 'void'
  const askUnmark = useMemo(() => (mayUnmark ? (l: BillLine) => setDialog({ unmark: l }) : undefined), [mayUnmark])
  return (
    <Card
      look="panel"
      data-testid="bill"
      title={
        <span className={styles.title}>
          <span>{appointmentId || !bill ? t('bill.title') : t('bill.of', { name: bill.patient.name })}</span>
          {bill?.number && <span className={styles.secondary}>{t('bill.number', { number: bill.number })}</span>}
        </span>
      }
      extra={bill && <BillStatus bill={bill} />}
    >
      <div className={styles.stack}>
        {bill?.status === 'void' && (
          <Alert
            type="error"
            title={t('bill.voided', { reason: bill.void_reason, by: bill.voided_by })}
            action={bill.replaced_by_id ? <Link to={`/bills/${bill.replaced_by_id}`}>{t('bill.seeReplacement')}</Link> : undefined}
          />
        )}
        {bill?.replaces_id && <Alert type="info" title={<Link to={`/bills/${bill.replaces_id}`}>{t('bill.replaces')}</Link>} />}
        {preview && preview.lines.length > 0 && <Alert type="info" title={t('bill.previewNote')} />}
        <Lines
          bill={shown}
          money={money}
          editable={charging && !preview}
          onEdit={setDialog}
          onRemove={askRemove}
          // A supervisor takes a wrong hand mark off a line (M3); a line the order put on is not a mark.
          onUnmark={askUnmark}
        />
        {shown && shown.lines.length > 0 && <Totals bill={shown} money={money} />}
        {(appointmentId ?? shown?.appointment_id) != null && <OrderCharges appointmentId={(appointmentId ?? shown?.appointment_id)!} billStatus={bill?.status} bill={bill} />}
        {charging && <AddCharge bill={bill} appointmentId={appointmentId} money={money} onDone={changed} />}
        {bill && (
          <div className={styles.buttons}>
            {charging && (
              <Button onClick={() => setDialog('discount')} disabled={bill.lines.length === 0}>
                {t('bill.discountAndNotes')}
              </Button>
            )}
            {charging && (
              <Button variant="primary" onClick={() => setDialog('finalise')} disabled={bill.lines.length === 0}>
                {t('bill.finalise')}
              </Button>
            )}
            {bill.status === 'final' && bill.balance > 0 && canPay && (
              <Button variant="primary" onClick={() => setDialog('pay')}>
                {t('bill.takePayment')}
              </Button>
            )}
            {bill.status !== 'draft' && (
              <Button icon={<PrinterIcon />} onClick={() => print('statement')}>
                {t('bill.printStatement')}
              </Button>
            )}
            {bill.status === 'final' && (bill.paid > 0 || bill.credited < bill.total) && canVoid && (
              <Button variant="dangerOutline" onClick={() => setDialog('refund')}>
                {t('bill.refund')}
              </Button>
            )}
            {bill.status === 'final' && canVoid && (
              <Button variant="dangerOutline" onClick={() => setDialog('void')}>
                {t('bill.void')}
              </Button>
            )}
          </div>
        )}
        {bill && justPaid && (
          <Alert
            type="success"
            onClose={() => setJustPaid(undefined)}
            closeLabel={t('bill.dismiss')}
            title={justPaid.change > 0 ? t('bill.receivedWithChange', { receipt: justPaid.receipt, change: money.format(justPaid.change) }) : t('bill.received', { receipt: justPaid.receipt })}
            action={
              <Button variant="primary" size="small" icon={<PrinterIcon />} onClick={() => print('receipt', justPaid.id)} data-testid="print-new-receipt">
                {t('bill.printReceipt')}
              </Button>
            }
          />
        )}
        {bill && bill.payments.length > 0 && <Payments bill={bill} money={money} onPrint={(p) => print(p.kind === 'refund' ? 'refund' : 'receipt', p.id)} />}
      </div>
      {bill && (
        <Confirm
          open={dialog === 'finalise'}
          title={t('bill.finaliseConfirm')}
          okText={t('bill.finalise')}
          cancelText={t('bill.cancel')}
          closeLabel={t('app.icons.close')}
          onCancel={close}
          onOk={async () => {
            await run(() => finaliseBill(bill), t('bill.finalised'))
            close()
          }}
        />
      )}
      {bill && typeof dialog === 'object' && 'remove' in dialog && (
        <Confirm
          open
          title={t('bill.removeConfirm', { item: dialog.remove.description })}
          okText={t('bill.remove')}
          cancelText={t('bill.cancel')}
          closeLabel={t('app.icons.close')}
          onCancel={close}
          onOk={async () => {
            await run(() => removeLine(bill, dialog.remove.id))
            close()
          }}
        />
      )}
      {bill && dialog === 'pay' && (
        <PaymentModal
          bill={bill}
          money={money}
          onClose={close}
          onPaid={(b, p) => {
            changed(b)
            setJustPaid(p)
          }}
        />
      )}
      {bill && dialog === 'discount' && <DiscountModal bill={bill} money={money} onClose={close} onDone={changed} />}
      {bill && typeof dialog === 'object' && !('unmark' in dialog) && !('remove' in dialog) && <DiscountModal bill={bill} line={dialog} money={money} onClose={close} onDone={changed} />}
      {bill && typeof dialog === 'object' && 'unmark' in dialog && (
        <UnmarkModal
          bill={bill}
          line={dialog.unmark}
          onClose={close}
          onDone={changed}
          onStale={() => {
            setDialog(undefined)
            refresh()
          }}
        />
      )}
      {bill && dialog === 'refund' && <RefundModal bill={bill} money={money} onClose={close} onDone={changed} />}
      {bill && dialog === 'void' && (
        <VoidModal
          bill={bill}
          onClose={close}
          onDone={(b) => {
            changed(b)
            // The replacement (a new draft) is the bill to work on now.
            if (b.id !== bill.id && !appointmentId) navigate(`/bills/${b.id}`)
          }}
        />
      )}
    </Card>
  )
}

function Lines({
  bill,
  money,
  editable,
  onEdit,
  onRemove,
  onUnmark,
}: {
  bill?: Bill
  money: Money
  editable: boolean
  onEdit: (l: BillLine) => void
  onRemove: (l: BillLine) => void
  onUnmark?: (l: BillLine) => void
}) {
  const { t } = useTranslation()
  // On a phone the item's words wrap and the amounts stay whole in view, rather than the table
  // growing wider than the screen (the clinic manager's run, 2026-11-29: "200." of "200.000").
  const phone = !useMediaQuery('(min-width: 576px)')
  const columns = useMemo<Column<BillLine>[]>(
    () => [
      {
        key: 'item',
        header: t('bill.item'),
        cell: (l) => (
          <span className={styles.cellLines}>
            <span>{l.description}</span>
            <span className={`${styles.secondary} ${styles.small}`}>
              {[l.code, l.lab_order_id != null ? t(l.by_order ? 'bill.fromOrder' : 'bill.markedByHand') : '', l.added_by].filter(Boolean).join(' · ')}
            </span>
            {onUnmark && l.lab_order_id != null && !l.by_order && (
              <Button variant="link" size="small" className={styles.linkButton} onClick={() => onUnmark(l)} aria-label={t('bill.unmarkOf', { item: l.description })}>
                {t('bill.unmark')}
              </Button>
            )}
          </span>
        ),
      },
      { key: 'qty', header: t('bill.qty'), align: 'end', nowrap: true, cell: (l) => l.quantity },
      { key: 'price', header: t('bill.unitPrice'), align: 'end', from: 'sm', cell: (l) => money.format(l.unit_price) },
      {
        key: 'discount',
        header: t('bill.discount'),
        align: 'end',
        from: 'md',
        cell: (l) =>
          l.discount ? (
            <span className={styles.cellLines}>
              <span className={styles.end}>−{money.format(l.discount)}</span>
              <span className={`${styles.secondary} ${styles.small}`}>{l.discount_reason}</span>
            </span>
          ) : (
            ''
          ),
      },
      { key: 'amount', header: t('bill.lineAmount'), align: 'end', nowrap: true, cell: (l) => money.format(l.amount) },
      ...(editable
        ? [
            {
              key: 'remove',
              header: <span className="visually-hidden">{t('bill.actions')}</span>,
              cell: (l: BillLine) => (
                <span className={styles.rowActions}>
                  <Button variant="text" size="small" icon={<EditIcon />} aria-label={t('bill.editItem', { item: l.description })} onClick={() => onEdit(l)} />
                  <Button variant="dangerText" size="small" icon={<DeleteIcon />} aria-label={t('bill.removeItem', { item: l.description })} onClick={() => onRemove(l)} />
                </span>
              ),
            },
          ]
        : []),
    ],
    [t, money, editable, onEdit, onRemove, onUnmark],
  )
  return <Table<BillLine> size="small" wrap={phone} emptyImage={false} rows={bill?.lines ?? []} rowKey={(l) => l.id} columns={columns} empty={<span className={styles.secondary}>{t('bill.noCharges')}</span>} />
}

function Totals({ bill, money }: { bill: Bill; money: Money }) {
  const { t } = useTranslation()
  const items = [
    { key: 'subtotal', label: t('bill.subtotal'), children: money.format(bill.subtotal) },
    ...(bill.discount ? [{ key: 'discount', label: t('bill.discount'), children: `−${money.format(bill.discount)}${bill.discount_reason ? ` (${bill.discount_reason})` : ''}` }] : []),
    { key: 'total', label: t('bill.total'), children: <strong data-testid="bill-total">{money.format(bill.total)}</strong> },
    ...(bill.status === 'final'
      ? [
          { key: 'paid', label: t('bill.paid'), children: money.format(bill.paid) },
          ...(bill.credited ? [{ key: 'credited', label: t('bill.credited'), children: <span data-testid="bill-credited">−{money.format(bill.credited)}</span> }] : []),
          { key: 'balance', label: t('bill.balance'), children: <strong data-testid="bill-balance">{money.format(bill.balance)}</strong> },
        ]
      : []),
  ]
  return (
    <>
      <Descriptions column={{ xs: 1, sm: 2, lg: 3 }} items={items} />
      {bill.notes && <p className={styles.notes}>{bill.notes}</p>}
    </>
  )
}
