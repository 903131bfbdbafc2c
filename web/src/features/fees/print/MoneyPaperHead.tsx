import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import styles from '../../../components/print/print.module.css'
import type { Clinic } from '../../../lib/clinic'
import type { Bill } from '../api/types'

/**
 * The head every money paper shares: its number, the clinic (name, address, phone, tax or
 * registration number), the paper's title, then the patient, the bill's number and the date.
 */
export function MoneyPaperHead({ number, clinic, title, bill, date, children }: { number: string; clinic?: Clinic; title: string; bill: Bill; date: string; children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <>
      <header className={styles.header}>
        <div className={styles.number}>{number}</div>
        <div className={styles.clinic}>{clinic?.name || t('app.name')}</div>
        {clinic?.address && <div style={{ whiteSpace: 'pre-line' }}>{clinic.address}</div>}
        {clinic?.phone && <div>{t('rx.phone', { phone: clinic.phone })}</div>}
        {clinic?.tax_id && <div>{t('bill.taxId', { id: clinic.tax_id })}</div>}
      </header>
      <h2 className={styles.title}>{title}</h2>
      <div className={styles.patient}>
        <div>
          {t('rx.sheetFields.patient')}: <strong>{bill.patient.name}</strong>
        </div>
        <div>
          {t('rx.sheetFields.mrn')}: {bill.patient.mrn}
        </div>
        <div>
          {t('bill.billNo')}: <span style={{ whiteSpace: 'nowrap' }}>{bill.number}</span>
        </div>
        <div>
          {t('rx.sheetFields.date')}: {date}
        </div>
        {children}
      </div>
    </>
  )
}
