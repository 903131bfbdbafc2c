import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Confirm } from '../../../light/Confirm'
import { Descriptions } from '../../../light/Descriptions'
import { Select } from '../../../light/Input'
import { useToast } from '../../../light/Toast'
import { addLine } from '../api/chargeBill'
import { linkOrder } from '../api/linkOrder'
import { useRefreshBills } from '../api/getBill'
import { useVisitOrderCharges } from '../api/getVisitOrderCharges'
import { useFeeSettings } from '../api/feeSettings'
import type { Bill, BillLine } from '../api/types'
import styles from './bill.module.css'
import { useMoney } from './useMoney'

/**
 * The visit's ordered tests beside its bill: how many are ordered and charged, and — for the
 * desk to act on — a test charged by no price-list service, one ordered after the bill was
 * final, and a cancelled order a final bill still charges (a refund to consider, ADR 41).
 * On a draft bill an order of a linked test is charged from the warning in one click: the
 * line added is one unit of its service, which the server takes as that order's charge.
 */
export function OrderCharges({ appointmentId, billStatus, bill }: { appointmentId: number; billStatus?: string; bill?: Bill }) {
  const { t } = useTranslation()
  const { data } = useVisitOrderCharges(appointmentId)
  const toast = useToast()
  const canCharge = useCan('record charges')
  const refresh = useRefreshBills()
  const [charging, setCharging] = useState<number>()
  const charge = async (orderId: number, serviceId: number) => {
    setCharging(orderId)
    try {
      await addLine({ appointmentId }, { service_id: serviceId, quantity: 1 })
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      toast.error(e.message)
    } finally {
      setCharging(undefined)
      refresh()
    }
  }
  const mark = async (orderId: number, lineId: number) => {
    if (!bill) return
    setCharging(orderId)
    try {
      await linkOrder(bill.id, lineId, orderId, bill.version)
      toast.success(t('bill.markedCharged'))
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      toast.error(e.message)
    } finally {
      setCharging(undefined)
      refresh()
    }
  }
  if (!data || data.orders.length === 0) return null
  const wanted = data.orders.filter((o) => !o.withdrawn)
  const unlinked = wanted.filter((o) => o.line_id == null && !o.linked && !o.service_inactive)
  const inactive = wanted.filter((o) => o.line_id == null && o.service_inactive)
  const late = wanted.filter((o) => o.line_id == null && o.linked)
  // A specimen taken keeps its charge, and a line refunded in full is settled: neither is a
  // refund still to make (the cashier's review, M2).
  const refund = data.orders.filter((o) => o.withdrawn && o.line_id != null && !o.collected && !o.zero_price)
  const free = wanted.filter((o) => o.line_id != null && o.zero_price)
  const names = (list: typeof data.orders) => list.map((o) => o.label || o.test).join(', ')
  // A panel and its members ordered together: "CMP includes BMP, ELEC", each panel once.
  const panels = [...new Set(wanted.map((o) => o.included_in).filter(Boolean))]
  return (
    <div className={styles.stackTight} data-testid="order-charges">
      <span className={data.charged < data.ordered ? styles.strong : undefined}>{t('bill.orderedCharged', { ordered: data.ordered, charged: data.charged })}</span>
      {unlinked.length > 0 && <Alert type="warning" title={t('bill.ordersNotLinked', { tests: names(unlinked), count: unlinked.length })} />}
      {inactive.length > 0 && <Alert type="warning" title={t('bill.ordersServiceInactive', { tests: names(inactive), count: inactive.length })} />}
      {late.length > 0 && (
        <Alert type="warning" title={t(billStatus === 'draft' ? 'bill.ordersNotCharged' : 'bill.ordersAfterFinal', { tests: names(late), count: late.length })} />
      )}
      {late.length > 0 && billStatus === 'draft' && canCharge && (
        <div className={styles.buttons}>
          {late.map((o) => (
            <Button key={o.order_id} size="small" loading={charging === o.order_id} disabled={charging != null} onClick={() => o.service_id != null && void charge(o.order_id, o.service_id)}>
              {t('bill.chargeOrder', { test: o.label || o.test })}
            </Button>
          ))}
        </div>
      )}
      {canCharge && bill && bill.status !== 'void' && <MarkCharged orders={[...unlinked, ...inactive, ...late]} bill={bill} busy={charging} onMark={(o, l) => void mark(o, l)} />}
      {free.length > 0 && <Alert type="warning" title={t('bill.ordersZeroPrice', { tests: names(free), count: free.length })} />}
      {panels.map((panel) => (
        <Alert key={panel} type="info" title={t('bill.panelIncludes', { panel, tests: names(wanted.filter((o) => o.included_in === panel)) })} />
      ))}
      {refund.length > 0 && (
        // A draft's charge is simply taken off; a final bill's is credited (a refund, ADR 41).
        <Alert type="error" title={t(billStatus === 'draft' ? 'bill.cancelledOnDraft' : 'bill.cancelledStillCharged', { tests: names(refund), count: refund.length })} />
      )}
    </div>
  )
}

type Markable = { order_id: number; label: string; test: string; service_id?: number | null; list_price?: number | null }

/**
 * A test charged as a line added by hand (written out, or of a service the test is not linked
 * to) is marked as that line's charge, so it stops waiting as not charged; on a final bill too,
 * as no amount changes. Only one-unit lines that charge no order are offered. The mark is
 * confirmed first, seeing the line, its amount and the test's list price (the cashier's
 * review, M3): a wrong mark on a final bill only a supervisor can take off.
 */
function MarkCharged({ orders, bill, busy, onMark }: { orders: Markable[]; bill: Bill; busy?: number; onMark: (order: number, line: number) => void }) {
  const { t } = useTranslation()
  const { data: settings } = useFeeSettings()
  const money = useMoney(bill.currency ?? settings?.currency ?? 'USD', bill.minor_units ?? settings?.minor_units ?? 2)
  const [pending, setPending] = useState<{ order: Markable; line: BillLine }>()
  const [chosen, setChosen] = useState<Record<number, number | undefined>>({})
  // Only a written-out line or one of the test's own service, that still charges something
  // (not price 0, not refunded in full), can be a test's charge; the server checks it too.
  const credited = new Map<number, number>()
  for (const p of bill.payments ?? []) if (p.line_id != null) credited.set(p.line_id, (credited.get(p.line_id) ?? 0) + (p.credit ?? 0))
  const free = bill.lines.filter((l) => l.lab_order_id == null && l.quantity === 1 && l.amount > (credited.get(l.id) ?? 0))
  const linesFor = (o: { service_id?: number | null }) => free.filter((l) => l.service_id == null || (o.service_id != null && l.service_id === o.service_id))
  if (orders.length === 0 || free.length === 0) return null
  const name = (o: Markable) => o.label || o.test
  return (
    <div className={styles.stackTight} data-testid="mark-charged">
      <span className={styles.secondary}>{t('bill.markChargedHint')}</span>
      {orders.map((o) => (
        <div key={o.order_id} className={styles.markRow}>
          <span>{name(o)}</span>
          {/* A line chosen, then Mark (choosing alone changes nothing: an arrow key in a closed
              select changes its value); confirmed first, then marked. */}
          <Select<number | ''>
            className={styles.markSelect}
            aria-label={t('bill.markChargedByNamed', { test: name(o) })}
            disabled={busy != null}
            value={chosen[o.order_id] ?? ''}
            options={[{ value: '', label: t('bill.markChargedBy'), disabled: true }, ...linesFor(o).map((l) => ({ value: l.id, label: l.code ? `${l.code} · ${l.description}` : l.description }))]}
            onChange={(id) => setChosen((c) => ({ ...c, [o.order_id]: id === '' ? undefined : id }))}
          />
          <Button
            size="small"
            disabled={busy != null || chosen[o.order_id] === undefined}
            aria-label={`${t('bill.markConfirm')}: ${name(o)}`}
            onClick={() => {
              const line = free.find((l) => l.id === chosen[o.order_id])
              if (line) setPending({ order: o, line })
            }}
          >
            {t('bill.markConfirm')}
          </Button>
        </div>
      ))}
      {pending && (
        <Confirm
          open
          role="dialog"
          width={520}
          title={t('bill.markConfirmTitle', { test: name(pending.order) })}
          okText={t('bill.markConfirm')}
          cancelText={t('bill.cancel')}
          closeLabel={t('app.icons.close')}
          onCancel={() => setPending(undefined)}
          onOk={() => (onMark(pending.order.order_id, pending.line.id), setPending(undefined))}
          content={
            <>
              <Descriptions
                bordered
                column={1}
                items={[
                  { key: 'line', label: t('bill.markLine'), children: pending.line.code ? `${pending.line.code} · ${pending.line.description}` : pending.line.description },
                  { key: 'amount', label: t('bill.markLineAmount'), children: <span data-testid="mark-amount">{money.format(pending.line.amount)}</span> },
                  {
                    key: 'price',
                    label: t('bill.listPrice'),
                    children: <span data-testid="mark-list-price">{pending.order.list_price != null ? money.format(pending.order.list_price) : t('bill.noListPrice')}</span>,
                  },
                ]}
              />
              {/* The line's unit price, before its own discount, against the list price: a correctly
                  priced line with a discount is not flagged (the server's rule too). */}
              {pending.order.list_price != null && pending.order.list_price !== pending.line.unit_price && (
                <div className={styles.spaced}>
                  <Alert type="warning" title={t('bill.markPriceDiffers')} />
                </div>
              )}
            </>
          }
        />
      )}
    </div>
  )
}
