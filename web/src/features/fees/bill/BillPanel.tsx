import { DeleteOutlined, EditOutlined, PrinterOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Descriptions, Empty, Flex, Grid, List, Popconfirm, Skeleton, Space, Table, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { useCan } from '../../../lib/auth/can'
import { billState } from '../../../lib/labels'
import { finaliseBill } from '../api/finaliseBill'
import { removeLine } from '../api/removeLine'
import { useFeeSettings } from '../api/feeSettings'
import { useBill, useBillChanged, useRefreshBills } from '../api/getBill'
import { useVisitBill } from '../api/getVisitBill'
import type { Bill, BillLine, Document, Payment } from '../api/types'
import { AddCharge } from './AddCharge'
import { OrderCharges } from './OrderCharges'
import { DiscountModal, RefundModal, UnmarkModal, VoidModal } from './dialogs'
import { PaymentModal } from './PaymentModal'
import { useMoney, type Money } from './useMoney'

type Dialog = 'pay' | 'discount' | 'refund' | 'void' | BillLine | { unmark: BillLine }

/** A bill's state as a tag (billState): charges open, to pay, refunded, paid, void. */
export function BillStatus({ bill }: { bill: Pick<Bill, 'status' | 'balance' | 'paid' | 'credited'> }) {
  const { t } = useTranslation()
  const state = billState(bill)
  return <Tag color={state.color}>{t(state.label)}</Tag>
}

/** A visit's bill: its charges for the doctor and the front desk, and from the front desk its discount, finalising, payments and prints. */
export function VisitBill({ appointmentId, closed }: { appointmentId: number; closed: boolean }) {
  const mayRead = [useCan('record charges'), useCan('record payment'), useCan('view financial reports')].some(Boolean)
  if (!mayRead) return null
  return <VisitBillOf appointmentId={appointmentId} closed={closed} />
}

function VisitBillOf({ appointmentId, closed }: { appointmentId: number; closed: boolean }) {
  const { data: bill, isLoading } = useVisitBill(appointmentId)
  if (isLoading) return <Skeleton active />
  return <BillCard bill={bill ?? undefined} appointmentId={appointmentId} closed={closed} />
}

/** A bill by its id (from a report, or a replaced bill). */
export function BillById({ id }: { id: number }) {
  const { data: bill, isLoading, error } = useBill(id)
  if (isLoading) return <Skeleton active />
  if (error || !bill) return <Empty description={error?.message} />
  return <BillCard bill={bill} closed={false} />
}

function BillCard({ bill: read, appointmentId, closed }: { bill?: Bill; appointmentId?: number; closed: boolean }) {
  // A visit under way shows the bill it will have (its consultation fee) before the first
  // charge writes it: shown, not yet a bill to act on.
  const preview = read?.preview ? read : undefined
  const bill = preview ? undefined : read
  const { t } = useTranslation()
  const { message } = App.useApp()
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
      if (done) message.success(done)
    } catch {
      // the app's error toast has said why
    }
  }
  const print = (doc: Document, payment?: number) => bill && navigate(`/bills/${bill.id}/print/${doc}${payment ? `?payment=${payment}` : ''}`)

  const draft = !bill || bill.status === 'draft'
  const charging = draft && canCharge && !closed
  return (
    <Card
      title={
        <Space wrap>
          {appointmentId || !bill ? t('bill.title') : t('bill.of', { name: bill.patient.name })}
          {bill?.number && <Typography.Text type="secondary">{t('bill.number', { number: bill.number })}</Typography.Text>}
        </Space>
      }
      extra={bill && <BillStatus bill={bill} />}
      // The patient's name wraps rather than being cut off on a phone.
      styles={{ title: { whiteSpace: 'normal', overflowWrap: 'anywhere' } }}
      data-testid="bill"
    >
      <Flex vertical gap={12}>
        {bill?.status === 'void' && (
          <Alert
            type="error"
            showIcon
            title={t('bill.voided', { reason: bill.void_reason, by: bill.voided_by })}
            action={bill.replaced_by_id ? <Link to={`/bills/${bill.replaced_by_id}`}>{t('bill.seeReplacement')}</Link> : undefined}
          />
        )}
        {bill?.replaces_id && <Alert type="info" showIcon title={<Link to={`/bills/${bill.replaces_id}`}>{t('bill.replaces')}</Link>} />}
        {preview && preview.lines.length > 0 && <Alert type="info" showIcon title={t('bill.previewNote')} />}
        <Lines
          bill={shown}
          money={money}
          editable={charging && !preview}
          onEdit={setDialog}
          onRemove={(l) => bill && void run(() => removeLine(bill, l.id))}
          // A supervisor takes a wrong hand mark off a line (M3); a line the order put on is not a mark.
          onUnmark={bill && canVoid && bill.status !== 'void' ? (l) => setDialog({ unmark: l }) : undefined}
        />
        {shown && shown.lines.length > 0 && <Totals bill={shown} money={money} />}
        {(appointmentId ?? shown?.appointment_id) != null && <OrderCharges appointmentId={(appointmentId ?? shown?.appointment_id)!} billStatus={bill?.status} bill={bill} />}
        {charging && <AddCharge bill={bill} appointmentId={appointmentId} money={money} onDone={changed} />}
        {bill && (
          <Flex gap={8} wrap>
            {charging && (
              <Button onClick={() => setDialog('discount')} disabled={bill.lines.length === 0}>
                {t('bill.discountAndNotes')}
              </Button>
            )}
            {charging && (
              <Popconfirm title={t('bill.finaliseConfirm')} okText={t('bill.finalise')} cancelText={t('bill.cancel')} onConfirm={() => run(() => finaliseBill(bill), t('bill.finalised'))}>
                <Button type="primary" disabled={bill.lines.length === 0}>
                  {t('bill.finalise')}
                </Button>
              </Popconfirm>
            )}
            {bill.status === 'final' && bill.balance > 0 && canPay && (
              <Button type="primary" onClick={() => setDialog('pay')}>
                {t('bill.takePayment')}
              </Button>
            )}
            {bill.status !== 'draft' && (
              <Button icon={<PrinterOutlined aria-hidden />} onClick={() => print('statement')}>
                {t('bill.printStatement')}
              </Button>
            )}
            {bill.status === 'final' && (bill.paid > 0 || bill.credited < bill.total) && canVoid && (
              <Button danger onClick={() => setDialog('refund')}>
                {t('bill.refund')}
              </Button>
            )}
            {bill.status === 'final' && canVoid && (
              <Button danger onClick={() => setDialog('void')}>
                {t('bill.void')}
              </Button>
            )}
          </Flex>
        )}
        {bill && justPaid && (
          <Alert
            type="success"
            showIcon
            closable={{ 'aria-label': t('bill.dismiss') }}
            onClose={() => setJustPaid(undefined)}
            title={justPaid.change > 0 ? t('bill.receivedWithChange', { receipt: justPaid.receipt, change: money.format(justPaid.change) }) : t('bill.received', { receipt: justPaid.receipt })}
            action={
              <Button type="primary" size="small" icon={<PrinterOutlined aria-hidden />} onClick={() => print('receipt', justPaid.id)} data-testid="print-new-receipt">
                {t('bill.printReceipt')}
              </Button>
            }
          />
        )}
        {bill && bill.payments.length > 0 && <Payments bill={bill} money={money} onPrint={(p) => print(p.kind === 'refund' ? 'refund' : 'receipt', p.id)} />}
      </Flex>
      {bill && dialog === 'pay' && (
        <PaymentModal
          bill={bill}
          money={money}
          onClose={() => setDialog(undefined)}
          onPaid={(b, p) => {
            changed(b)
            setJustPaid(p)
          }}
        />
      )}
      {bill && dialog === 'discount' && <DiscountModal bill={bill} money={money} onClose={() => setDialog(undefined)} onDone={changed} />}
      {bill && typeof dialog === 'object' && !('unmark' in dialog) && <DiscountModal bill={bill} line={dialog} money={money} onClose={() => setDialog(undefined)} onDone={changed} />}
      {bill && typeof dialog === 'object' && 'unmark' in dialog && (
        <UnmarkModal
          bill={bill}
          line={dialog.unmark}
          onClose={() => setDialog(undefined)}
          onDone={changed}
          onStale={() => {
            setDialog(undefined)
            refresh()
          }}
        />
      )}
      {bill && dialog === 'refund' && <RefundModal bill={bill} money={money} onClose={() => setDialog(undefined)} onDone={changed} />}
      {bill && dialog === 'void' && (
        <VoidModal
          bill={bill}
          onClose={() => setDialog(undefined)}
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
  const phone = !Grid.useBreakpoint().sm
  const whole = () => ({ style: { whiteSpace: 'nowrap' as const } })
  return (
    <Table<BillLine>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={bill?.lines ?? []}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText: <Typography.Text type="secondary">{t('bill.noCharges')}</Typography.Text> }}
      columns={[
        {
          key: 'item',
          title: t('bill.item'),
          render: (_, l) => (
            <Space orientation="vertical" size={0}>
              <span>{l.description}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {[l.code, l.lab_order_id != null ? t(l.by_order ? 'bill.fromOrder' : 'bill.markedByHand') : '', l.added_by].filter(Boolean).join(' · ')}
              </Typography.Text>
              {onUnmark && l.lab_order_id != null && !l.by_order && (
                <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onUnmark(l)} aria-label={t('bill.unmarkOf', { item: l.description })}>
                  {t('bill.unmark')}
                </Button>
              )}
            </Space>
          ),
        },
        { key: 'qty', dataIndex: 'quantity', title: t('bill.qty'), align: 'end', onCell: whole },
        { key: 'price', title: t('bill.unitPrice'), align: 'end', responsive: ['sm'], render: (_, l) => money.format(l.unit_price) },
        {
          key: 'discount',
          title: t('bill.discount'),
          align: 'end',
          responsive: ['md'],
          render: (_, l) =>
            l.discount ? (
              <Space orientation="vertical" size={0}>
                <span>−{money.format(l.discount)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {l.discount_reason}
                </Typography.Text>
              </Space>
            ) : (
              ''
            ),
        },
        { key: 'amount', title: t('bill.lineAmount'), align: 'end', onCell: whole, render: (_, l) => money.format(l.amount) },
        ...(editable
          ? [
              {
                key: 'remove',
                title: <span className="visually-hidden">{t('bill.actions')}</span>,
                render: (_: unknown, l: BillLine) => (
                  <Space size={0}>
                    <Button type="text" size="small" icon={<EditOutlined aria-hidden />} aria-label={t('bill.editItem', { item: l.description })} onClick={() => onEdit(l)} />
                    <Popconfirm title={t('bill.removeConfirm', { item: l.description })} okText={t('bill.remove')} cancelText={t('bill.cancel')} onConfirm={() => onRemove(l)}>
                      <Button type="text" danger size="small" icon={<DeleteOutlined aria-hidden />} aria-label={t('bill.removeItem', { item: l.description })} />
                    </Popconfirm>
                  </Space>
                ),
              },
            ]
          : []),
      ]}
    />
  )
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
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }} items={items} />
      {bill.notes && <Typography.Paragraph style={{ whiteSpace: 'pre-line', margin: 0 }}>{bill.notes}</Typography.Paragraph>}
    </>
  )
}

function Payments({ bill, money, onPrint }: { bill: Bill; money: Money; onPrint: (p: Payment) => void }) {
  const { t } = useTranslation()
  const phone = !Grid.useBreakpoint().md
  // A credit note (a refund that paid no cash back) reads 0, not −0.
  const amount = (p: Payment) => (p.kind === 'refund' && p.amount > 0 ? `−${money.format(p.amount)}` : money.format(p.amount))
  const method = (p: Payment) => (
    <span>
      {/* Spaces between the tags and the method: read aloud, "Refund credited Cash", not "RefundcreditedCash". */}
      {p.kind === 'refund' && <Tag color="red">{t('bill.refunded')}</Tag>}{' '}
      {p.kind === 'refund' && <Tag>{p.credit > 0 ? t('bill.creditedTag') : t('bill.stillOwedTag')}</Tag>}{' '}
      {t(`bill.methods.${p.method}`)}
      {p.reference && <Typography.Text type="secondary"> · {p.reference}</Typography.Text>}
    </span>
  )
  const receipt = (p: Payment) => (
    <Button size="small" icon={<PrinterOutlined aria-hidden />} onClick={() => onPrint(p)} aria-label={t(p.kind === 'refund' ? 'bill.printRefundNo' : 'bill.printReceiptNo', { receipt: p.receipt })}>
      {p.kind === 'refund' ? t('bill.refundSlipShort') : t('bill.receiptShort')}
    </Button>
  )
  const title = <Typography.Text strong>{t('bill.payments')}</Typography.Text>
  // A phone: a card each, the amount, the change and the receipt button in view without scrolling sideways.
  if (phone)
    return (
      <List
        header={title}
        dataSource={bill.payments}
        renderItem={(p) => (
          <List.Item key={p.id} style={{ display: 'block' }}>
            <Flex justify="space-between" align="baseline" gap={8} wrap>
              <Typography.Text>{p.receipt}</Typography.Text>
              <Typography.Text strong>{amount(p)}</Typography.Text>
            </Flex>
            <div>{method(p)}</div>
            <Flex justify="space-between" align="center" gap={8} wrap style={{ marginTop: 4 }}>
              <Typography.Text type="secondary">
                {dayjs(p.received_at).format('HH:mm')} · {p.received_by}
                {p.tendered != null && ` · ${t('bill.change')}: ${money.format(p.change)}`}
              </Typography.Text>
              {receipt(p)}
            </Flex>
          </List.Item>
        )}
      />
    )
  return (
    <Table<Payment>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={bill.payments}
      scroll={{ x: 'max-content' }}
      title={() => title}
      columns={[
        { key: 'receipt', title: t('bill.receipt'), render: (_, p) => p.receipt },
        { key: 'when', title: t('bill.when'), render: (_, p) => dayjs(p.received_at).format('HH:mm') },
        { key: 'method', title: t('bill.method'), render: (_, p) => method(p) },
        { key: 'amount', title: t('bill.amount'), align: 'end', render: (_, p) => amount(p) },
        { key: 'change', title: t('bill.change'), align: 'end', render: (_, p) => (p.tendered != null ? money.format(p.change) : '') },
        { key: 'by', title: t('bill.cashier'), responsive: ['lg'], render: (_, p) => p.received_by },
        { key: 'print', title: <span className="visually-hidden">{t('bill.printReceipt')}</span>, render: (_, p) => receipt(p) },
      ]}
    />
  )
}
