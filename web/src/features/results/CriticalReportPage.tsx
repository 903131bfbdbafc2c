// /results/critical: every critical result raised in a period, with each level's times (raised,
// escalated to the covering role, to the medical lead, acknowledged), who acknowledged it, how
// the result was received and the patient reached, how long it waited, and its e-mails. An
// alert whose value was withdrawn says so (when, by whom, why), its value struck: it was never
// acknowledged unless it says so, and must not read as if it were. The withdrawal's follow-up
// (what was done, by whom) or that it waits for one is shown, and a withdrawal made by the
// alert's own doctor or acknowledger is flagged.
import { Card, Empty, Space, Table, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { Link } from 'react-router'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { useAlertReport } from './api/alertReport'
import type { CriticalAlert } from './api/types'
import { resultText } from './format'
import { WithdrawalFollowup, withdrawnWhy } from './OrderAlerts'
import { FlagTag } from './ResultParts'
import { DateRangeInput } from '../../components/DateInput'

export default function CriticalReportPage() {
  const { t, i18n } = useTranslation()
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(30, 'day'), dayjs()])
  const report = useAlertReport(range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD'))
  return (
    <Card title={t('results.criticalTitle')}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <DateRangeInput
          value={range}
          allowClear={false}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          aria-label={t('results.period')}
        />
        <ScrollRegion label={t('results.criticalTitle')}>
          <Table<CriticalAlert>
            rowKey="id"
            size="small"
            loading={report.isLoading}
            dataSource={report.data ?? []}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            style={{ minWidth: 1200 }}
            locale={{ emptyText: <Empty description={t('results.noCritical')} /> }}
            columns={[
              { title: t('results.raisedAt'), key: 'raised', render: (_, a) => formatDayTime(a.raised_at) },
              { title: t('results.patient'), key: 'patient', render: (_, a) => <Link to={chartPath(a.patient)}>{fullName(a.patient)}</Link> },
              {
                title: t('results.resultTitle'),
                key: 'result',
                render: (_, a) => (
                  <Link to={`/results/orders/${a.order_id}`}>
                    {a.result.label}: <Typography.Text delete={!!a.withdrawn_at}>{resultText(t, a.result, i18n.language)}</Typography.Text>{' '}
                    <FlagTag flag={a.result.flag} />
                  </Link>
                ),
              },
              { title: t('results.orderedBy'), key: 'doctor', render: (_, a) => a.doctor_name },
              {
                title: t('results.acknowledged'),
                key: 'ack',
                render: (_, a) => (
                  <>
                    {a.open && !a.withdrawn_at && <Tag color="red">{t('results.notAcknowledged')}</Tag>}
                    {a.acknowledged_at && (
                      <div>
                        {a.acknowledged_by_name} · {formatDayTime(a.acknowledged_at)}
                        {a.contact && <> · {t(`results.contacts.${a.contact}`)}</>}
                        {a.received_by && <> · {t(`results.receivedBy.${a.received_by}`)}</>}
                      </div>
                    )}
                    {a.withdrawn_at && (
                      <div data-testid="alert-withdrawn">
                        <Tag color="magenta">{t('results.withdrawnReport', { time: formatDayTime(a.withdrawn_at), name: a.withdrawn_by_name })}</Tag>
                        <Typography.Text type="secondary">
                          {' '}
                          {withdrawnWhy(t, a)}
                        </Typography.Text>
                        {a.withdrawn_by_recipient && (
                          <div>
                            <Tag color="orange" data-testid="withdrawn-by-recipient">
                              {t('results.withdrawnByRecipient')}
                            </Tag>
                          </div>
                        )}
                        <div>
                          <WithdrawalFollowup alert={a} />
                        </div>
                      </div>
                    )}
                  </>
                ),
              },
              { title: t('results.minutesToAck'), key: 'minutes', render: (_, a) => (a.minutes_to_acknowledge == null ? '—' : t('results.minutes', { count: a.minutes_to_acknowledge })) },
              { title: t('results.escalatedLevel1'), key: 'esc', render: (_, a) => (a.escalated_at ? formatDayTime(a.escalated_at) : '—') },
              { title: t('results.escalatedLevel2'), key: 'lead', render: (_, a) => (a.escalated_lead_at ? formatDayTime(a.escalated_lead_at) : '—') },
              {
                title: t('results.actionTaken'),
                key: 'action',
                render: (_, a) => (
                  <>
                    {a.action}
                    {a.not_reached_at && (
                      <div>
                        <Typography.Text type="danger">{t('results.notReachedAt', { time: formatDayTime(a.not_reached_at), name: a.not_reached_by_name })}</Typography.Text>
                      </div>
                    )}
                  </>
                ),
              },
              {
                title: t('results.emails'),
                key: 'emails',
                render: (_, a) =>
                  a.emails.length === 0
                    ? '—'
                    : a.emails.map((m, i) => (
                        <div key={i}>
                          <Typography.Text type={m.status === 'failed' || m.status === 'no_address' ? 'danger' : undefined} title={m.last_error || undefined}>
                            {t(m.withdrawal ? 'results.emailLineWithdrawal' : 'results.emailLine', { level: m.level, name: m.name, status: t(`results.emailStatus.${m.status}`) })}
                          </Typography.Text>
                        </div>
                      )),
              },
            ]}
          />
        </ScrollRegion>
      </Space>
    </Card>
  )
}
