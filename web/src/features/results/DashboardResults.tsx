// The dashboard's results figures, for whoever reviews results: the results waiting for
// their review, and the critical results still unacknowledged (escalated ones with their age).
import { Card, Col, Statistic, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { useReviewCount } from './api/countReview'
import { splitAlerts, useAlerts } from './api/listAlerts'
import { minutesSince } from './format'

export function DashboardResults() {
  const { t, i18n } = useTranslation()
  const can = useCan('review results')
  const waiting = useReviewCount(can).data
  const alerts = useAlerts(can)
  if (!can) return null
  // A critical result withdrawn as entered in error is no longer one to acknowledge (the
  // banner says it was withdrawn; the review queue carries it).
  const { open } = splitAlerts(alerts.data)
  const escalated = open.filter((a) => a.escalated_at)
  const oldest = open.length > 0 ? minutesSince(open[0].raised_at) : 0
  const number = (n: number) => new Intl.NumberFormat(i18n.language).format(n)
  return (
    <>
      <Col xs={12} md={8} xl={4}>
        <Link to="/results/review" data-testid="figure-results-review" style={{ display: 'block', height: '100%' }}>
          <Card hoverable size="small" style={{ height: '100%' }}>
            <Statistic
              title={t('results.toReviewFigure')}
              value={waiting === undefined ? '–' : number(waiting)}
              loading={waiting === undefined}
            />
          </Card>
        </Link>
      </Col>
      <Col xs={12} md={8} xl={4}>
        <Link to="/results/critical" data-testid="figure-critical" style={{ display: 'block', height: '100%' }}>
          <Card hoverable size="small" style={{ height: '100%' }}>
            <Statistic title={t('results.criticalFigure')} value={number(open.length)} valueStyle={open.length > 0 ? { color: '#cf1322' } : undefined} />
            {open.length > 0 && <Typography.Text type="danger">{t('results.oldestWaiting', { count: oldest })}</Typography.Text>}
            {escalated.length > 0 && (
              <div>
                <Typography.Text type="danger">{t('results.escalatedCount', { count: escalated.length })}</Typography.Text>
              </div>
            )}
          </Card>
        </Link>
      </Col>
    </>
  )
}
