// The critical alerts an order's results raised and what became of each: acknowledged (by
// whom, what was done), escalated, withdrawn (why, by whom) and the withdrawal's follow-up.
// Whoever opens the order sees who was told of a value before it was withdrawn.
import { Card, Space, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../lib/time'
import type { CriticalAlert } from './api/types'
import { resultText, withdrawnWhy } from './format'
import { FlagTag } from './ResultParts'

/** Why an alert was withdrawn (format.ts: the banner, loaded with no library, says it too). */
export { withdrawnWhy }

/** What was done about a withdrawal (who, when, the note), or that it waits for it. */
export function WithdrawalFollowup({ alert: a }: { alert: CriticalAlert }) {
  const { t } = useTranslation()
  if (!a.withdrawal_seen_at) return a.open ? <Tag color="red">{t('results.withdrawnUnseen')}</Tag> : null
  return (
    <Typography.Text data-testid="withdrawal-followup">
      {t('results.followupSeen', { followup: t(`results.followups.${a.withdrawal_followup}`), name: a.withdrawal_seen_by_name, time: formatDayTime(a.withdrawal_seen_at) })}
      {a.withdrawal_note && <> — {a.withdrawal_note}</>}
    </Typography.Text>
  )
}

export function OrderAlerts({ alerts }: { alerts: CriticalAlert[] | undefined }) {
  const { t, i18n } = useTranslation()
  if (!alerts?.length) return null
  return (
    <Card title={t('results.orderAlerts')} data-testid="order-alerts">
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        {alerts.map((a) => (
          <div key={a.id}>
            <Typography.Text delete={!!a.withdrawn_at}>
              {a.result.label}: {resultText(t, a.result, i18n.language)}
            </Typography.Text>{' '}
            <FlagTag flag={a.result.flag} /> · {formatDayTime(a.raised_at)} · {a.doctor_name}
            {a.escalated_at && <Tag color="orange">{a.escalated_lead_at ? t('results.escalatedLeadTag') : t('results.escalatedTag')}</Tag>}
            <div>
              {a.acknowledged_at ? (
                <Typography.Text>{t('results.withdrawnAcknowledged', { name: a.acknowledged_by_name, time: formatDayTime(a.acknowledged_at), action: a.action })}</Typography.Text>
              ) : (
                !a.withdrawn_at && <Tag color="red">{t('results.notAcknowledged')}</Tag>
              )}
            </div>
            {a.withdrawn_at && (
              <div>
                <Tag color="magenta">{t('results.withdrawnReport', { time: formatDayTime(a.withdrawn_at), name: a.withdrawn_by_name })}</Tag>
                <Typography.Text type="secondary">
                  {withdrawnWhy(t, a)}
                </Typography.Text>
                <div>
                  <WithdrawalFollowup alert={a} />
                </div>
              </div>
            )}
          </div>
        ))}
      </Space>
    </Card>
  )
}
