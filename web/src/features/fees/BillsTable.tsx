// Bills as the desk looks for them, on the light table: the report of every bill (BillsPage)
// and a patient's bills on the chart (PatientBills) draw the same list.
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatMoney } from '../../lib/money'
import { formatDay } from '../../lib/time'
import { Pager } from '../../light/Pager'
import { Table, type Column } from '../../light/Table'
import type { BillList, BillSummary } from './api/listBills'
import { BillStatus } from './bill/BillStatus'
import styles from './bills.module.css'

interface Props {
  data?: BillList
  loading: boolean
  /** The patient column, unless the list is one patient's. */
  showPatient?: boolean
  page?: { current: number; pageSize: number; onChange: (page: number, size: number) => void }
}

const PAGE_SIZES = [10, 15, 20, 30, 50]

/** Bills as the desk looks for them: number (or "draft"), patient, date, total, balance and status; each opens the bill. */
export function BillsTable({ data, loading, showPatient = true, page }: Props) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const columns = useMemo<Column<BillSummary>[]>(() => {
    const money = (b: BillSummary, n: number) => formatMoney(n, b.currency, b.minor_units, lang)
    return [
      { key: 'number', header: t('bill.billNo'), cell: (b) => <Link to={`/bills/${b.id}`}>{b.number || t('bills.draftNo', { id: b.id })}</Link> },
      ...(showPatient
        ? [
            {
              key: 'patient',
              header: t('rx.sheetFields.patient'),
              cell: (b: BillSummary) => (
                <span>
                  {b.patient.name} <span className={styles.secondary}>{b.patient.mrn}</span>
                </span>
              ),
            },
          ]
        : []),
      { key: 'date', header: t('reports.date'), from: 'sm', cell: (b) => formatDay(b.finalised_at ?? b.created_at) },
      { key: 'kind', header: t('bills.kind'), from: 'md', cell: (b) => (b.appointment_id ? t('bills.visit') : t('bills.walkIn')) },
      { key: 'total', header: t('bill.total'), align: 'end', cell: (b) => money(b, b.total) },
      { key: 'balance', header: t('bill.balance'), align: 'end', from: 'sm', cell: (b) => (b.status === 'final' ? money(b, b.balance) : '') },
      { key: 'status', header: t('bills.status'), cell: (b) => <BillStatus bill={b} /> },
    ]
  }, [t, lang, showPatient])
  return (
    <div data-testid="bills-list">
      <Table<BillSummary> size="small" rowKey={(b) => b.id} loading={loading} rows={data?.data} columns={columns} empty={t('bills.none')} />
      {page && (
        <div className={styles.pager}>
          <Pager page={page.current} pageSize={page.pageSize} total={data?.total ?? 0} pageSizes={PAGE_SIZES} onChange={page.onChange} />
        </div>
      )}
    </div>
  )
}
