import { Empty, Table, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { formatDay } from '../../lib/time'
import type { BillList, BillSummary } from './api/listBills'
import { BillStatus } from './bill/BillStatus'
import { formatMoney } from '../../lib/money'

interface Props {
  data?: BillList
  loading: boolean
  /** The patient column, unless the list is one patient's. */
  showPatient?: boolean
  page?: { current: number; pageSize: number; onChange: (page: number, size: number) => void }
}

/** Bills as the desk looks for them: number (or "draft"), patient, date, total, balance and status; each opens the bill. */
export function BillsTable({ data, loading, showPatient = true, page }: Props) {
  const { t, i18n } = useTranslation()
  const money = (b: BillSummary, n: number) => formatMoney(n, b.currency, b.minor_units, i18n.language)
  return (
    <Table<BillSummary>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={data?.data ?? []}
      // Scrolled sideways only with rows in it: each row's link is then the keyboard's way in.
      scroll={data?.data.length ? { x: 'max-content' } : undefined}
      data-testid="bills-list"
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bills.none')} /> }}
      pagination={
        page
          ? { current: page.current, pageSize: page.pageSize, total: data?.total ?? 0, pageSizeOptions: [10, 15, 20, 30, 50], showSizeChanger: true, onChange: page.onChange }
          : false
      }
      columns={[
        {
          key: 'number',
          title: t('bill.billNo'),
          render: (_, b) => <Link to={`/bills/${b.id}`}>{b.number || t('bills.draftNo', { id: b.id })}</Link>,
        },
        ...(showPatient
          ? [
              {
                key: 'patient',
                title: t('rx.sheetFields.patient'),
                render: (_: unknown, b: BillSummary) => (
                  <span>
                    {b.patient.name} <Typography.Text type="secondary">{b.patient.mrn}</Typography.Text>
                  </span>
                ),
              },
            ]
          : []),
        { key: 'date', title: t('reports.date'), responsive: ['sm'], render: (_, b) => formatDay(b.finalised_at ?? b.created_at) },
        { key: 'kind', title: t('bills.kind'), responsive: ['md'], render: (_, b) => (b.appointment_id ? t('bills.visit') : t('bills.walkIn')) },
        { key: 'total', title: t('bill.total'), align: 'end', render: (_, b) => money(b, b.total) },
        { key: 'balance', title: t('bill.balance'), align: 'end', responsive: ['sm'], render: (_, b) => (b.status === 'final' ? money(b, b.balance) : '') },
        { key: 'status', title: t('bills.status'), render: (_, b) => <BillStatus bill={b} /> },
      ]}
    />
  )
}
