// /results/overdue: orders past their test's turnaround with no result, and orders whose result
// was withdrawn for a reason that calls for the test again, the longest overdue first, each
// with why it is listed and the patient's phone, so that the patient can be called back.
import { Card, Empty, Table, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { Link } from 'react-router'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { useOverdue } from './api/listOverdue'
import type { LabOrder } from './api/types'
import { daysSince } from './format'
import { MisfiledCard } from './MisfiledCard'
import { StatusTag } from './ResultParts'

export default function OverduePage() {
  const { t } = useTranslation()
  const overdue = useOverdue()
  return (
    <>
      <MisfiledCard />
      <Card title={t('results.overdueTitle')}>
      <Typography.Paragraph type="secondary">{t('results.overdueHint')}</Typography.Paragraph>
      <ScrollRegion label={t('results.overdueTitle')}>
        <Table<LabOrder>
          rowKey="id"
          size="small"
          loading={overdue.isLoading}
          dataSource={overdue.data ?? []}
          pagination={false}
          style={{ minWidth: 760 }}
          locale={{ emptyText: <Empty description={t('results.nothingOverdue')} /> }}
          columns={[
            { title: t('results.patient'), key: 'patient', render: (_, o) => o.patient && <Link to={chartPath(o.patient)}>{fullName(o.patient)}</Link> },
            { title: t('results.phone'), key: 'phone', render: (_, o) => o.patient?.phone },
            { title: t('results.test'), key: 'test', render: (_, o) => <Link to={`/results/orders/${o.id}`}>{o.test_label}</Link> },
            { title: t('results.statusTitle'), key: 'status', render: (_, o) => <StatusTag status={o.status} /> },
            {
              title: t('results.overdueWhy'),
              key: 'why',
              render: (_, o) => <Why order={o} />,
            },
            { title: t('results.orderedBy'), key: 'by', render: (_, o) => `${o.ordered_by_name} · ${formatDayTime(o.ordered_at)}` },
            { title: t('results.due'), key: 'due', render: (_, o) => formatDayTime(o.due_at) },
            { title: t('results.overdueBy'), key: 'late', render: (_, o) => (new Date(o.due_at).getTime() > Date.now() ? '–' : t('results.days', { count: daysSince(o.due_at) })) },
          ]}
        />
      </ScrollRegion>
      </Card>
    </>
  )
}

/**
 * Why `o` is on the list: no result yet, or a result withdrawn. A specimen problem or another patient's sample calls
 * for a new sample, so the patient is recalled, not the laboratory chased (M6 of the clinician's review, 2026-11-29).
 */
function Why({ order: o }: { order: LabOrder }) {
  const { t } = useTranslation()
  if (!o.repeat_needed) return <Tag>{t('results.overdueNoResult')}</Tag>
  if (o.repeat_category === 'specimen' || o.repeat_category === 'wrong_patient') {
    return (
      <Tag color="red" style={{ whiteSpace: 'normal' }}>
        {t('results.overdueNewSample', { category: t(`results.withdrawnCategories.${o.repeat_category}`) })}
      </Tag>
    )
  }
  return <Tag color="red">{t('results.overdueRepeat')}</Tag>
}
