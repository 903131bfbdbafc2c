// The dashboard's results figures, for whoever reviews results: the results waiting for
// their review, and the critical results still unacknowledged (escalated ones with their age).
// Light figure cards (components/FigureCard), cells of the dashboard's grid of figures.
import { useTranslation } from 'react-i18next'
import { FigureCard, FigureNote } from '../../components/FigureCard'
import { useCan } from '../../lib/auth/can'
import { useReviewCount } from './api/countReview'
import { splitAlerts, useAlerts } from './api/listAlerts'
import { minutesSince } from './format'

export function DashboardResults() {
  const { t } = useTranslation()
  const can = useCan('review results')
  const waiting = useReviewCount(can).data
  const alerts = useAlerts(can)
  if (!can) return null
  // A critical result withdrawn as entered in error is no longer one to acknowledge (the
  // banner says it was withdrawn; the review queue carries it).
  const { open } = splitAlerts(alerts.data)
  const escalated = open.filter((a) => a.escalated_at)
  const oldest = open.length > 0 ? minutesSince(open[0].raised_at) : 0
  return (
    <>
      <FigureCard title={t('results.toReviewFigure')} value={waiting} to="/results/review" testId="figure-results-review" />
      <FigureCard
        title={t('results.criticalFigure')}
        value={open.length}
        tone={open.length > 0 ? 'danger' : undefined}
        to="/results/critical"
        testId="figure-critical"
        extra={
          <>
            {open.length > 0 && <FigureNote danger>{t('results.oldestWaiting', { count: oldest })}</FigureNote>}
            {escalated.length > 0 && <FigureNote danger>{t('results.escalatedCount', { count: escalated.length })}</FigureNote>}
          </>
        }
      />
    </>
  )
}
