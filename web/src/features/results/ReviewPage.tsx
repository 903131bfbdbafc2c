// /results/review: the ordering doctor's final results waiting for review — critical first,
// then abnormal, then the oldest, with days pending — marked reviewed one or many at once,
// with an optional comment. An order a result of which was withdrawn comes before all, says so
// (the value, why, and whether the alert had been acknowledged), and is marked reviewed on its
// own with what was done about it (FollowupDialog; never in a batch).
import { App, Button, Card, Empty, Flex, Input, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { Link } from 'react-router'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { useReview, useReviewQueue, type LabOrder } from './api/results'
import { FollowupDialog } from './FollowupDialog'
import { daysSince, resultText } from './format'
import { OrderFlags, StatusTag } from './ResultParts'

export function AttentionTag({ attention, withdrawn }: { attention: number; withdrawn?: boolean }) {
  const { t } = useTranslation()
  if (withdrawn) return <Tag color="magenta">{t('results.attention.withdrawn')}</Tag>
  if (attention === 2) return <Tag color="red">{t('results.attention.critical')}</Tag>
  if (attention === 1) return <Tag color="orange">{t('results.attention.abnormal')}</Tag>
  return <Tag>{t('results.attention.normal')}</Tag>
}

export default function ReviewPage() {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const [following, setFollowing] = useState<LabOrder | null>(null)
  const queue = useReviewQueue()
  const review = useReview()
  const [selected, setSelected] = useState<number[]>([])
  const [comment, setComment] = useState('')
  const list = queue.data ?? []
  const mark = (orders: LabOrder[]) =>
    review.mutate(
      { orders: orders.map((o) => ({ id: o.id, version: o.version })), comment },
      {
        onSuccess: (r) => {
          void message.success(t('results.reviewedCount', { count: r.reviewed }))
          setSelected([])
          setComment('')
        },
        onError: (e) => void message.error((e as Error).message),
      },
    )
  return (
    <Card title={t('results.reviewTitle')}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('results.reviewHint')}
        </Typography.Paragraph>
        <Flex wrap gap={8} align="start">
          <Input.TextArea
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={500}
            autoSize={{ minRows: 1, maxRows: 4 }}
            placeholder={t('results.reviewComment')}
            aria-label={t('results.reviewComment')}
            style={{ flex: '1 1 220px', maxWidth: 480 }}
          />
          <Button type="primary" disabled={selected.length === 0} loading={review.isPending} onClick={() => mark(list.filter((o) => selected.includes(o.id)))} data-testid="mark-reviewed">
            {t('results.markReviewed', { count: selected.length })}
          </Button>
        </Flex>
        <ScrollRegion label={t('results.reviewTitle')}>
          <Table<LabOrder>
            rowKey="id"
            size="small"
            loading={queue.isLoading}
            dataSource={list}
            pagination={false}
            style={{ minWidth: 760 }}
            locale={{ emptyText: <Empty description={t('results.nothingToReview')} /> }}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: (keys) => setSelected(keys as number[]),
              // A withdrawal is reviewed on its own (the server refuses it in a batch too).
              getCheckboxProps: (o) =>
                ({
                  'aria-label': o.withdrawn_to_review ? t('results.withdrawnAlone') : t('results.selectOrder', { test: o.test_label }),
                  disabled: o.withdrawn_to_review,
                }) as never,
            }}
            columns={[
              {
                title: t('results.attentionTitle'),
                key: 'attention',
                render: (_, o) =>
                  o.withdrawn_to_review ? (
                    <Space orientation="vertical" size={4} data-testid={`withdrawn-${o.id}`}>
                      <AttentionTag attention={o.attention} withdrawn />
                      <Typography.Text type="danger">{t('results.withdrawnHint')}</Typography.Text>
                      {o.retracted?.map((r) => (
                        <Typography.Text key={r.id} delete>
                          {r.label}: {resultText(t, r, i18n.language)}
                        </Typography.Text>
                      ))}
                      {o.retracted?.[0]?.retract_reason && <Typography.Text type="secondary">{o.retracted[0].retract_reason}</Typography.Text>}
                      <Button size="small" loading={review.isPending} onClick={() => setFollowing(o)} data-testid={`review-one-${o.id}`}>
                        {t('results.reviewOne')}
                      </Button>
                    </Space>
                  ) : (
                    <AttentionTag attention={o.attention} />
                  ),
              },
              { title: t('results.patient'), key: 'patient', render: (_, o) => o.patient && <Link to={chartPath(o.patient)}>{fullName(o.patient)}</Link> },
              { title: t('results.test'), key: 'test', render: (_, o) => <Link to={`/results/orders/${o.id}`}>{o.test_label}</Link> },
              { title: t('results.flagsTitle'), key: 'flags', render: (_, o) => <OrderFlags order={o} /> },
              { title: t('results.resultedAt'), key: 'resulted', render: (_, o) => o.resulted_at && formatDayTime(o.resulted_at) },
              { title: t('results.daysPending'), key: 'days', render: (_, o) => (o.resulted_at ? t('results.days', { count: daysSince(o.resulted_at) }) : '') },
              { title: t('results.statusTitle'), key: 'status', render: (_, o) => <StatusTag status={o.status} /> },
            ]}
          />
        </ScrollRegion>
      </Space>
      {following && (
        <FollowupDialog
          onSubmit={(followup, note) => review.mutateAsync({ orders: [{ id: following.id, version: following.version }], comment: note, followup })}
          onClose={() => setFollowing(null)}
        />
      )}
    </Card>
  )
}
