// A patient's results on the chart: every order with its state and flags (a row opens to its
// results), and trends of vitals and of any test over time.
import { Card, Empty, Table, Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { Link } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { formatDayTime } from '../../lib/time'
import { usePatientOrders } from './api/listPatientOrders'
import type { LabOrder } from './api/types'
import { OrderFlags, ResultsTable, StatusTag } from './ResultParts'
import { Trends } from './Trends'

export function PatientResults({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const record = useCan('record results')
  const review = useCan('review results')
  const diagnose = useCan('write diagnosis')
  const vitals = useCan('record vitals')
  const can = record || review || diagnose
  const orders = usePatientOrders(patientId, can)
  if (!can && !vitals) return null
  const list = orders.data ?? []
  const unreviewed = list.filter((o) => o.to_review).length
  return (
    <>
      {can && (
        <Card
          title={t('results.chartTitle')}
          data-testid="patient-results"
          extra={unreviewed > 0 && <Tag color="orange">{t('results.unreviewed', { count: unreviewed })}</Tag>}
        >
          <ScrollRegion label={t('results.chartTitle')}>
            <Table<LabOrder>
              rowKey="id"
              size="small"
              loading={orders.isLoading}
              dataSource={list}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              style={{ minWidth: 560 }}
              locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('results.noOrders')} /> }}
              expandable={{ expandedRowRender: (o) => <ResultsTable results={o.results} />, rowExpandable: (o) => o.results.length > 0 }}
              columns={[
                { title: t('results.orderedAt'), key: 'at', render: (_, o) => formatDayTime(o.collected_at ?? o.ordered_at) },
                { title: t('results.test'), key: 'test', render: (_, o) => <Link to={`/results/orders/${o.id}`}>{o.test_label}</Link> },
                {
                  title: t('results.statusTitle'),
                  key: 'status',
                  render: (_, o) => (
                    <>
                      <StatusTag status={o.status} />
                      {o.to_review && <Tag color="orange">{t('results.awaitingReview')}</Tag>}
                    </>
                  ),
                },
                { title: t('results.flagsTitle'), key: 'flags', render: (_, o) => <OrderFlags order={o} /> },
              ]}
            />
          </ScrollRegion>
        </Card>
      )}
      <Trends patientId={patientId} orders={can ? list : []} withVitals={vitals || diagnose} />
    </>
  )
}
