// A bill's payments and refunds: on a wide screen a table (receipt, time, method, amount,
// change, cashier, its slip to print), on a phone a card each, the amount, the change and the
// print button in view without scrolling sideways.
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { useMediaQuery } from '../../../lib/media'
import { Button } from '../../../light/Button'
import { PrinterIcon } from '../../../light/icons'
import { Table, type Column } from '../../../light/Table'
import { Tag } from '../../../light/Tag'
import type { Bill, Payment } from '../api/types'
import styles from './bill.module.css'
import type { Money } from './useMoney'

export function Payments({ bill, money, onPrint }: { bill: Bill; money: Money; onPrint: (p: Payment) => void }) {
  const { t } = useTranslation()
  const phone = !useMediaQuery('(min-width: 768px)')
  // A credit note (a refund that paid no cash back) reads 0, not −0.
  const amount = (p: Payment) => (p.kind === 'refund' && p.amount > 0 ? `−${money.format(p.amount)}` : money.format(p.amount))
  const method = (p: Payment) => (
    <span>
      {/* Spaces between the tags and the method: read aloud, "Refund credited Cash", not "RefundcreditedCash". */}
      {p.kind === 'refund' && <Tag color="red">{t('bill.refunded')}</Tag>}{' '}
      {p.kind === 'refund' && <Tag>{p.credit > 0 ? t('bill.creditedTag') : t('bill.stillOwedTag')}</Tag>}{' '}
      {t(`bill.methods.${p.method}`)}
      {p.reference && <span className={styles.secondary}> · {p.reference}</span>}
    </span>
  )
  const receipt = (p: Payment) => (
    <Button size="small" icon={<PrinterIcon />} onClick={() => onPrint(p)} aria-label={t(p.kind === 'refund' ? 'bill.printRefundNo' : 'bill.printReceiptNo', { receipt: p.receipt })}>
      {p.kind === 'refund' ? t('bill.refundSlipShort') : t('bill.receiptShort')}
    </Button>
  )
  // A phone: a card each, the amount, the change and the receipt button in view without scrolling sideways.
  if (phone)
    return (
      <div>
        <div className={styles.paymentsTitle} id={`bill-${bill.id}-payments`}>
          {t('bill.payments')}
        </div>
        <ul className={styles.payments} aria-labelledby={`bill-${bill.id}-payments`}>
          {bill.payments.map((p) => (
            <li key={p.id} className={styles.payment}>
              <div className={styles.spread}>
                <span>{p.receipt}</span>
                <strong>{amount(p)}</strong>
              </div>
              <div>{method(p)}</div>
              <div className={styles.spreadCentre}>
                <span className={styles.secondary}>
                  {dayjs(p.received_at).format('HH:mm')} · {p.received_by}
                  {p.tendered != null && ` · ${t('bill.change')}: ${money.format(p.change)}`}
                </span>
                {receipt(p)}
              </div>
            </li>
          ))}
        </ul>
      </div>
    )
  const columns: Column<Payment>[] = [
    { key: 'receipt', header: t('bill.receipt'), cell: (p) => p.receipt },
    { key: 'when', header: t('bill.when'), cell: (p) => dayjs(p.received_at).format('HH:mm') },
    { key: 'method', header: t('bill.method'), cell: (p) => method(p) },
    { key: 'amount', header: t('bill.amount'), align: 'end', cell: (p) => amount(p) },
    { key: 'change', header: t('bill.change'), align: 'end', cell: (p) => (p.tendered != null ? money.format(p.change) : '') },
    { key: 'by', header: t('bill.cashier'), from: 'lg', cell: (p) => p.received_by },
    { key: 'print', header: <span className="visually-hidden">{t('bill.printReceipt')}</span>, cell: (p) => receipt(p) },
  ]
  return <Table<Payment> size="small" caption={t('bill.payments')} rows={bill.payments} rowKey={(p) => p.id} columns={columns} />
}
