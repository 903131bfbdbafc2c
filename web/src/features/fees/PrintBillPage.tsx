import { Alert, Radio, Result, Spin } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams, useSearchParams } from 'react-router'
import styles from '../../components/print/print.module.css'
import { PAGE, PAGES } from '../../components/print/pageFooter'
import { PrintFrame } from '../../components/print/PrintFrame'
import { SignedBy } from '../../components/print/SignedBy'
import { usePrint } from '../../components/print/usePrint'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { useClinic, type Clinic } from '../../lib/clinic'
import { paperDay, paperDayTime } from '../../lib/time'
import { useViewSubject } from '../../lib/viewSubject'
import { amountInWords } from '../../lib/amountInWords'
import { useBill } from './api/getBill'
import { usePrintBill } from './api/printBill'
import type { Bill, Document, Payment } from './api/types'
import { BillStatus } from './bill/BillStatus'
import { useMoney, type Money } from './bill/useMoney'
import { PAPERS, pageSize, storedPaper, type Paper } from './print/paper'
import { MoneyPaperHead } from './print/MoneyPaperHead'
import { RefundSlip } from './print/RefundSlip'

/** /bills/:id/print/:doc — the statement of fees, a payment's receipt or a refund's slip (?payment=). Every print is audited. */
export default function PrintBillPage() {
  const { t } = useTranslation()
  const printBill = usePrintBill()
  const id = Number(useParams().id)
  const docParam = useParams().doc
  const doc: Document = docParam === 'receipt' || docParam === 'refund' ? docParam : 'statement'
  const paymentId = Number(useSearchParams()[0].get('payment')) || undefined
  const { data: bill, error, isLoading } = useBill(id)
  const kind = doc === 'refund' ? 'refund' : 'payment'
  const payment = bill && doc !== 'statement' ? [...bill.payments].reverse().find((p) => p.kind === kind && (!paymentId || p.id === paymentId)) : undefined
  const { print, busy } = usePrint(async () => {
    // The sheet printed is the bill as the server recorded the print (with the doctor's
    // signature, which only a bill's own read carries).
    if (bill) await printBill(bill.id, doc, payment?.id)
  })
  const { data: clinic } = useClinic()
  const [paper, setPaper] = useState<Paper>(() => storedPaper(doc === 'statement' ? 'billPaper' : 'receiptPaper', 'A5'))
  useViewSubject(bill?.patient.name)
  const money = useMoney(bill?.currency ?? 'USD', bill?.minor_units ?? 2)
  // Only one who signs papers can draw the missing signature (on their profile): the desk
  // that prints the statement could do nothing about the warning.
  const prescribes = useCan('write prescription')
  const issues = useCan('issue documents')
  const signs = prescribes || issues

  if (isLoading) return <Spin />
  if (error || !bill) return <Result status="404" title={error instanceof ApiError ? error.message : t('bill.notFound')} />
  const choosePaper = (p: Paper) => (setPaper(p), localStorage.setItem(doc === 'statement' ? 'billPaper' : 'receiptPaper', p))
  const printable = bill.status !== 'draft' && (doc === 'statement' || payment)
  const sheet = (testId?: string) =>
    doc === 'refund' ? (
      payment && <RefundSlip bill={bill} refund={payment} clinic={clinic} paper={paper} money={money} testId={testId} />
    ) : (
      <Sheet bill={bill} doc={doc} payment={payment} clinic={clinic} paper={paper} money={money} testId={testId} />
    )

  return (
    <PrintFrame
      size={pageSize(paper)}
      margin={paper === 'roll' ? '3mm' : '10mm'}
      // A roll is one long page: numbering it would say nothing.
      footer={paper === 'roll' ? undefined : t('rx.pageFooter', { patient: bill.patient.name, number: bill.patient.mrn, page: PAGE, pages: PAGES })}
      controls={
        <Radio.Group
          value={paper}
          onChange={(e) => choosePaper(e.target.value as Paper)}
          optionType="button"
          options={PAPERS.map((p) => ({ value: p, label: p === 'roll' ? t('bill.roll') : p }))}
          aria-label={t('rx.paper')}
        />
      }
      action={printable ? { label: t('bill.print'), busy, onPrint: () => void print() } : undefined}
      status={<BillStatus bill={bill} />}
      notices={
        <>
          {bill.status === 'draft' && <Alert type="info" showIcon title={t('bill.draftPrintsNothing')} />}
          {doc !== 'statement' && !payment && <Alert type="warning" showIcon title={doc === 'refund' ? t('bill.noRefund') : t('bill.noPayment')} />}
          {doc === 'statement' && signs && bill.doctor_details && !bill.doctor_details.has_signature && <Alert type="warning" showIcon title={t('bill.noSignature')} />}
        </>
      }
      sheet={sheet}
      testId={`${doc}-sheet`}
    />
  )
}

interface SheetProps {
  bill: Bill
  doc: Document
  payment?: Payment
  clinic?: Clinic
  paper: Paper
  money: Money
  testId?: string
}

function Sheet({ bill, doc, payment, clinic, paper, money, testId }: SheetProps) {
  const { t, i18n } = useTranslation()
  const receipt = doc === 'receipt'
  // A receipt counts the payments up to its own; a statement all of them.
  const upTo = payment ? bill.payments.slice(0, bill.payments.indexOf(payment) + 1) : bill.payments
  const paid = upTo.reduce((sum, p) => sum + (p.kind === 'refund' ? -p.amount : p.amount), 0)
  const credited = upTo.reduce((sum, p) => sum + p.credit, 0)
  const doctor = bill.doctor_details
  return (
    <article className={`${styles.sheet} ${styles[paper]}`} aria-label={receipt ? t('bill.receiptTitle') : t('bill.statementTitle')} data-testid={testId}>
      {bill.status === 'void' && <div className={styles.void}>{t('bill.status.void')}</div>}
      <MoneyPaperHead
        number={receipt ? (payment?.receipt ?? '') : t('bill.number', { number: bill.number })}
        clinic={clinic}
        title={receipt ? t('bill.receiptTitle') : t('bill.statementTitle')}
        bill={bill}
        date={receipt && payment ? paperDayTime(payment.received_at) : bill.finalised_at ? paperDay(bill.finalised_at) : ''}
      >
        {bill.doctor && (
          <div style={{ gridColumn: '1 / -1' }}>
            {t('bill.doctor')}: {bill.doctor}
          </div>
        )}
      </MoneyPaperHead>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>{t('bill.item')}</th>
            <th className={styles.num}>{t('bill.qty')}</th>
            <th className={styles.num}>{t('bill.unitPrice')}</th>
            <th className={styles.num}>{t('bill.lineAmount')}</th>
          </tr>
        </thead>
        <tbody>
          {bill.lines.map((l) => (
            <tr key={l.id}>
              <td>
                {l.description}
                {l.discount > 0 && (
                  <div className={styles.small}>
                    {t('bill.discount')} −{money.format(l.discount)}
                    {l.discount_reason && ` (${l.discount_reason})`}
                  </div>
                )}
              </td>
              <td className={styles.num}>{l.quantity}</td>
              <td className={styles.num}>{money.format(l.unit_price)}</td>
              <td className={styles.num}>{money.format(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {/* The sums, what was paid and the signature go to the printer together: a second page
          never holds a signature alone (clinic-day review 2026-11-28, m16). */}
      <div className={styles.closing} data-testid="sheet-closing">
        <dl className={styles.sums}>
          <dt>{t('bill.subtotal')}</dt>
          <dd>{money.format(bill.subtotal)}</dd>
          {bill.discount > 0 && (
            <>
              <dt>
                {t('bill.discount')}
                {bill.discount_reason && ` (${bill.discount_reason})`}
              </dt>
              <dd>−{money.format(bill.discount)}</dd>
            </>
          )}
          <dt>
            <strong>{t('bill.total')}</strong>
          </dt>
          <dd>
            <strong>{money.format(bill.total)}</strong>
          </dd>
          {upTo.map((p) => (
            <Paid key={p.id} p={p} money={money} />
          ))}
          {credited > 0 && (
            <>
              <dt>{t('bill.credited')}</dt>
              <dd>−{money.format(credited)}</dd>
            </>
          )}
          {/* A void bill asks nothing: no balance is printed on it. */}
          {bill.status === 'final' && (
            <>
              <dt>
                <strong>{t('bill.balance')}</strong>
              </dt>
              <dd>
                <strong data-testid="sheet-balance">{money.format(Math.max(bill.total - credited - paid, 0))}</strong>
              </dd>
            </>
          )}
        </dl>
        {receipt && payment && (
          <>
            <p>
              {t('bill.receivedFrom', { payer: payment.payer || bill.patient.name })}
              <br />
              {t('bill.receivedBy', { amount: money.format(payment.amount), method: t(`bill.methods.${payment.method}`), cashier: payment.received_by })}
              {payment.tendered != null && payment.change > 0 && ` ${t('bill.tenderedChange', { tendered: money.format(payment.tendered), change: money.format(payment.change) })}`}
            </p>
            <p className={styles.words} data-testid="amount-in-words">
              {t('bill.inWords', { words: amountInWords(payment.amount, bill.currency, bill.minor_units, i18n.language) })}
            </p>
          </>
        )}
        {!receipt && bill.notes && <p style={{ whiteSpace: 'pre-line' }}>{bill.notes}</p>}
        {receipt && (
          <p className={styles.small} data-testid="receipt-not-fiscal">
            {t('bill.receiptNotFiscal')}
          </p>
        )}
        <div className={styles.signatureBlock}>
          {receipt ? (
            <div>
              <div style={{ height: 40 }} />
              <div className={styles.signatureLine}>
                <strong>{payment?.received_by}</strong>
                <div>{t('bill.cashier')}</div>
              </div>
            </div>
          ) : (
            <SignedBy doctor={doctor} signature={doctor?.has_signature ? doctor.signature_url : undefined} signatureAlt={t('bill.signatureAlt')} t={t} testId="statement-signature" />
          )}
        </div>
      </div>
    </article>
  )
}

function Paid({ p, money }: { p: Payment; money: Money }) {
  const { t } = useTranslation()
  return (
    <>
      <dt>
        {p.kind === 'refund' ? t('bill.refunded') : t('bill.paid')} · {t(`bill.methods.${p.method}`)} · {p.receipt} · {paperDay(p.received_at)}
        {p.kind === 'refund' && p.reason && ` · ${p.reason}`}
      </dt>
      <dd>{p.kind === 'refund' ? `−${money.format(p.amount)}` : money.format(p.amount)}</dd>
    </>
  )
}
