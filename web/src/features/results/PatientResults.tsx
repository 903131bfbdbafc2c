// A patient's results on the chart: every order with its state and flags (a row opens to its
// results), and trends of vitals and of any test over time.
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { formatDayTime } from '../../lib/time'
import { Card } from '../../light/Card'
import { Pager } from '../../light/Pager'
import { Table, type Column, type Expandable } from '../../light/Table'
import { Tag } from '../../light/Tag'
import { usePatientOrders } from './api/listPatientOrders'
import type { LabOrder } from './api/types'
import { OrderFlags, ResultsTable, StatusTag } from './ResultParts'
import styles from './results.module.css'
import { Trends } from './Trends'

/** Orders a page of the chart's list shows (the page numbers only once there are more). */
const PAGE = 10

/** An order's results under its row; an order without results has nothing to open. */
const expandable: Expandable<LabOrder> = { render: (o) => <ResultsTable results={o.results} />, can: (o) => o.results.length > 0 }

export function PatientResults({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const record = useCan('record results')
  const review = useCan('review results')
  const diagnose = useCan('write diagnosis')
  const vitals = useCan('record vitals')
  const can = record || review || diagnose
  const orders = usePatientOrders(patientId, can)
  const [page, setPage] = useState(1)
  const columns = useMemo<Column<LabOrder>[]>(
    () => [
      { key: 'at', header: t('results.orderedAt'), cell: (o) => formatDayTime(o.collected_at ?? o.ordered_at) },
      { key: 'test', header: t('results.test'), cell: (o) => <Link to={`/results/orders/${o.id}`}>{o.test_label}</Link> },
      {
        key: 'status',
        header: t('results.statusTitle'),
        cell: (o) => (
          <>
            <StatusTag status={o.status} />
            {o.to_review && (
              <Tag color="orange" className={styles.tag}>
                {t('results.awaitingReview')}
              </Tag>
            )}
          </>
        ),
      },
      { key: 'flags', header: t('results.flagsTitle'), cell: (o) => <OrderFlags order={o} /> },
    ],
    [t],
  )
  if (!can && !vitals) return null
  const list = orders.data ?? []
  const unreviewed = list.filter((o) => o.to_review).length
  // A page past the end (the list shrank) shows the last one.
  const pages = Math.max(1, Math.ceil(list.length / PAGE))
  const shown = Math.min(page, pages)
  return (
    <>
      {can && (
        <Card
          look="panel"
          level={3}
          title={t('results.chartTitle')}
          data-testid="patient-results"
          extra={unreviewed > 0 && <Tag color="orange">{t('results.unreviewed', { count: unreviewed })}</Tag>}
        >
          {/* On a phone the table scrolls in its own box, which the keyboard reaches (light/Table). */}
          <Table<LabOrder>
            size="small"
            rowKey={(o) => o.id}
            loading={orders.isLoading}
            rows={list.slice((shown - 1) * PAGE, shown * PAGE)}
            label={t('results.chartTitle')}
            empty={t('results.noOrders')}
            expandable={expandable}
            columns={columns}
          />
          {list.length > PAGE && (
            <div className={styles.pager}>
              <Pager page={shown} pageSize={PAGE} total={list.length} onChange={setPage} label={t('results.chartTitle')} />
            </div>
          )}
        </Card>
      )}
      <Trends patientId={patientId} orders={can ? list : []} withVitals={vitals || diagnose} />
    </>
  )
}
