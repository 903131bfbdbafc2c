import { useTranslation } from 'react-i18next'
import styles from '../../../components/print/print.module.css'
import { amountInWords } from '../../../lib/amountInWords'
import type { Clinic } from '../../../lib/clinic'
import { paperDayTime } from '../../../lib/time'
import type { Bill, Payment } from '../api/types'
import type { Money } from '../bill/useMoney'
import { MoneyPaperHead } from './MoneyPaperHead'
import type { Paper } from './paper'

interface Props {
  bill: Bill
  refund: Payment
  clinic?: Clinic
  paper: Paper
  money: Money
  testId?: string
}

/**
 * A refund's slip, for the patient to sign on taking the money back: how much (in figures and
 * words), how, why, which service was not given and what the bill asks after it — or, for money
 * still owed, that the bill is owed again.
 */
export function RefundSlip({ bill, refund, clinic, paper, money, testId }: Props) {
  const { t, i18n } = useTranslation()
  const upTo = bill.payments.slice(0, bill.payments.indexOf(refund) + 1)
  const paid = upTo.reduce((sum, p) => sum + (p.kind === 'refund' ? -p.amount : p.amount), 0)
  const credited = upTo.reduce((sum, p) => sum + p.credit, 0)
  const line = refund.line_id ? bill.lines.find((l) => l.id === refund.line_id) : undefined
  return (
    <article className={`${styles.sheet} ${styles[paper]}`} aria-label={t('bill.refundSlipTitle')} data-testid={testId}>
      <MoneyPaperHead number={refund.receipt} clinic={clinic} title={t('bill.refundSlipTitle')} bill={bill} date={paperDayTime(refund.received_at)} />
      <dl className={styles.sums}>
        <dt>
          <strong>{t('bill.refundedAmount')}</strong>
        </dt>
        <dd>
          <strong data-testid="refund-amount">{money.format(refund.amount)}</strong>
        </dd>
        <dt>{t('bill.method')}</dt>
        <dd>{t(`bill.methods.${refund.method}`)}</dd>
      </dl>
      <p className={styles.words}>{t('bill.inWords', { words: amountInWords(refund.amount, bill.currency, bill.minor_units, i18n.language) })}</p>
      <p>{t('bill.refundReason', { reason: refund.reason })}</p>
      {refund.credit > 0 ? (
        <p data-testid="refund-settles">
          {line ? t('bill.creditedService', { service: line.description, amount: money.format(refund.credit) }) : t('bill.creditedAmount', { amount: money.format(refund.credit) })}{' '}
          {t('bill.afterRefund', { total: money.format(bill.total - credited), balance: money.format(Math.max(bill.total - credited - paid, 0)) })}
        </p>
      ) : (
        <p data-testid="refund-settles">{t('bill.refundStillOwed', { balance: money.format(Math.max(bill.total - credited - paid, 0)) })}</p>
      )}
      <div className={styles.signatures}>
        <div>
          <div style={{ height: 40 }} />
          <div className={styles.signatureLine}>
            <strong>{bill.patient.name}</strong>
            <div>{t('bill.patientReceivedRefund')}</div>
          </div>
        </div>
        <div>
          <div style={{ height: 40 }} />
          <div className={styles.signatureLine}>
            <strong>{refund.received_by}</strong>
            <div>{t('bill.cashier')}</div>
          </div>
        </div>
      </div>
    </article>
  )
}
