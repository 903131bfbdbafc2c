// /results/review: the ordering doctor's final results waiting for review — critical first,
// then abnormal, then the oldest, with days pending — marked reviewed one or many at once,
// with an optional comment. An order a result of which was withdrawn comes before all, says so
// (the value, why, and whether the alert had been acknowledged), and is marked reviewed on its
// own with what was done about it (FollowupDialog; never in a batch). When the clinic's rule
// releases a result once reviewed, an abnormal one says the patient will see it in the portal,
// with a one-click "review and hold for discussion"; the holds due for review come first (ADR 45).
import { Alert, App, Button, Card, Checkbox, Empty, Flex, Grid, Input, List, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { Link } from 'react-router'
import { chartPath, fullName } from '../../lib/patient'
import { formatDay, formatDayTime } from '../../lib/time'
import { useHoldsDue } from './api/listHoldsDue'
import { useReviewQueue } from './api/listReviewQueue'
import { useReviewAndHold } from './api/reviewAndHold'
import { useReview } from './api/reviewResults'
import type { DueHold, LabOrder } from './api/types'
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
  const reviewAndHold = useReviewAndHold()
  const holds = useHoldsDue()
  // Unknown (not yet read, or refused): warn, as if the rule released on review.
  const releasesOnReview = holds.data?.releases_on_review ?? true
  const due = holds.data?.data ?? []
  const [selected, setSelected] = useState<number[]>([])
  const [comment, setComment] = useState('')
  const list = queue.data ?? []
  const phone = !Grid.useBreakpoint().md
  const boxLabel = (o: LabOrder) => (o.withdrawn_to_review ? t('results.withdrawnAlone') : t('results.selectOrder', { test: o.test_label }))
  // A corrected value shows what it was, what it is now, and why it changed: in the withdrawn branch too, where a
  // critical value corrected to one not critical is (M4 of the laboratory clinician's review, 2026-11-29).
  const corrected = (o: LabOrder) =>
    o.correction &&
    o.correction.replaced.length > 0 && (
      <>
        {o.correction.replaced.map((r) => {
          const now = o.results.find((c) => c.analyte === r.analyte)
          return (
            <Typography.Text key={r.id}>
              {r.label}: <Typography.Text delete>{resultText(t, r, i18n.language)}</Typography.Text> → {now ? resultText(t, now, i18n.language) : '–'}
            </Typography.Text>
          )
        })}
        {o.correction.reason && (
          <Typography.Text type="secondary">
            {t('results.reason')}: {o.correction.reason}
          </Typography.Text>
        )}
      </>
    )
  // Every reason given for what was retracted, once each (m5).
  const reasons = (o: LabOrder) => [...new Set((o.retracted ?? []).map((r) => r.retract_reason).filter(Boolean))]
  // An abnormal or critical result the rule shows the patient once reviewed: say so, and offer to hold it first.
  const portal = (o: LabOrder) =>
    releasesOnReview &&
    o.attention >= 1 && (
      <Space orientation="vertical" size={4} data-testid={`portal-warning-${o.id}`}>
        <Typography.Text type="warning">{t('results.portalOnReview.warning')}</Typography.Text>
        <Button
          size="small"
          loading={reviewAndHold.isPending && reviewAndHold.variables?.order.id === o.id}
          disabled={review.isPending || reviewAndHold.isPending}
          aria-label={t('results.portalOnReview.holdNamed', { test: o.test_label })}
          onClick={() =>
            reviewAndHold.mutate(
              { order: o, reason: t('results.portalOnReview.reason'), comment },
              {
                onSuccess: () => {
                  void message.success(t('results.portalOnReview.done'))
                  setSelected((ids) => ids.filter((id) => id !== o.id))
                },
                onError: (e) => void message.error((e as Error).message),
              },
            )
          }
          data-testid={`review-hold-${o.id}`}
        >
          {t('results.portalOnReview.hold')}
        </Button>
      </Space>
    )
  const attention = (o: LabOrder) =>
    o.withdrawn_to_review ? (
      <Space orientation="vertical" size={4} data-testid={`withdrawn-${o.id}`}>
        <AttentionTag attention={o.attention} withdrawn />
        <Typography.Text type="danger">{t('results.withdrawnHint')}</Typography.Text>
        {o.retracted?.map((r) => (
          <Typography.Text key={r.id} delete>
            {r.label}: {resultText(t, r, i18n.language)}
          </Typography.Text>
        ))}
        {reasons(o).map((reason) => (
          <Typography.Text key={reason} type="secondary">
            {reason}
          </Typography.Text>
        ))}
        {corrected(o)}
        <Button size="small" loading={review.isPending} onClick={() => setFollowing(o)} data-testid={`review-one-${o.id}`}>
          {t('results.reviewOne')}
        </Button>
      </Space>
    ) : o.correction && o.correction.replaced.length > 0 ? (
      <Space orientation="vertical" size={4} data-testid={`corrected-${o.id}`}>
        <AttentionTag attention={o.attention} />
        <Typography.Text type="warning">{t('results.correctedHint')}</Typography.Text>
        {corrected(o)}
        {portal(o)}
      </Space>
    ) : (
      <Space orientation="vertical" size={4}>
        <AttentionTag attention={o.attention} />
        {portal(o)}
      </Space>
    )
  const patient = (o: LabOrder) => o.patient && <Link to={chartPath(o.patient)}>{fullName(o.patient)}</Link>
  const test = (o: LabOrder) => <Link to={`/results/orders/${o.id}`}>{o.test_label}</Link>
  const days = (o: LabOrder) => (o.resulted_at ? t('results.days', { count: daysSince(o.resulted_at) }) : '')
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
        {due.length > 0 && <HoldsDue holds={due} />}
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
        {releasesOnReview && list.some((o) => selected.includes(o.id) && o.attention >= 1) && (
          <Typography.Text type="warning" data-testid="portal-warning-batch">
            {t('results.portalOnReview.batch')}
          </Typography.Text>
        )}
        {phone ? (
          // A phone: a card each, its flags, when it was resulted and its status in view.
          <List
            loading={queue.isLoading}
            dataSource={list}
            locale={{ emptyText: <Empty description={t('results.nothingToReview')} /> }}
            renderItem={(o) => (
              <List.Item key={o.id} style={{ display: 'block' }} data-testid="review-card">
                <Flex gap={8} align="start">
                  <Checkbox
                    aria-label={boxLabel(o)}
                    disabled={o.withdrawn_to_review}
                    checked={selected.includes(o.id)}
                    onChange={(e) => setSelected((ids) => (e.target.checked ? [...ids, o.id] : ids.filter((id) => id !== o.id)))}
                  />
                  <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
                    <Flex gap={8} wrap align="center">
                      {attention(o)}
                      <StatusTag status={o.status} />
                    </Flex>
                    <div>
                      {test(o)} · {patient(o)}
                    </div>
                    <OrderFlags order={o} />
                    {o.resulted_at && (
                      <Typography.Text type="secondary">
                        {t('results.resultedAt')}: {formatDayTime(o.resulted_at)} · {days(o)}
                      </Typography.Text>
                    )}
                  </Flex>
                </Flex>
              </List.Item>
            )}
          />
        ) : (
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
                getCheckboxProps: (o) => ({ 'aria-label': boxLabel(o), disabled: o.withdrawn_to_review }) as never,
              }}
              columns={[
                { title: t('results.attentionTitle'), key: 'attention', render: (_, o) => attention(o) },
                { title: t('results.patient'), key: 'patient', render: (_, o) => patient(o) },
                { title: t('results.test'), key: 'test', render: (_, o) => test(o) },
                { title: t('results.flagsTitle'), key: 'flags', render: (_, o) => <OrderFlags order={o} /> },
                { title: t('results.resultedAt'), key: 'resulted', render: (_, o) => o.resulted_at && formatDayTime(o.resulted_at) },
                { title: t('results.daysPending'), key: 'days', render: (_, o) => days(o) },
                { title: t('results.statusTitle'), key: 'status', render: (_, o) => <StatusTag status={o.status} /> },
              ]}
            />
          </ScrollRegion>
        )}
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

/** The holds from the portal whose review-by day has come, each linking to its patient's chart
 * (where a doctor releases it or holds it again). */
function HoldsDue({ holds }: { holds: DueHold[] }) {
  const { t } = useTranslation()
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="holds-due"
      title={t('results.holdsDue.title', { count: holds.length })}
      description={
        <List
          size="small"
          dataSource={holds}
          renderItem={(h) => (
            <List.Item key={`${h.kind}-${h.id}`} style={{ display: 'block' }}>
              <Link to={chartPath(h.patient)}>{fullName(h.patient)}</Link> · {h.title || t(`release.kind.${h.kind}`)}
              <Typography.Text type="secondary">
                {' · '}
                {t('results.holdsDue.line', { name: h.held_by_name || '–', at: formatDay(h.held_at), day: formatDay(h.review_by) })}
              </Typography.Text>
            </List.Item>
          )}
        />
      }
    />
  )
}
