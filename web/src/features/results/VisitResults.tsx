// A visit's lab and imaging orders on the diagnosis page: each test's state and flags, and the
// way to its results. The orders follow the form: a test the doctor orders appears here once
// the form has saved.
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { Card } from '../../light/Card'
import { Empty } from '../../light/Empty'
import { useVisitOrders } from './api/listVisitOrders'
import { OrderFlags, StatusTag } from './ResultParts'
import styles from './results.module.css'

export function VisitResults({ appointmentId, revision }: { appointmentId: number; revision?: string | null }) {
  const { t } = useTranslation()
  const record = useCan('record results')
  const review = useCan('review results')
  const diagnose = useCan('write diagnosis')
  const can = record || review || diagnose
  const orders = useVisitOrders(appointmentId, can)
  const { refetch } = orders
  // The form saved (its orders may have changed): read the orders again.
  useEffect(() => {
    if (can && revision) void refetch()
  }, [revision, can, refetch])
  if (!can) return null
  const list = orders.data ?? []
  return (
    <Card look="panel" level={3} title={t('results.visitTitle')} data-testid="visit-results">
      {list.length === 0 ? (
        <Empty small>{t('results.noOrders')}</Empty>
      ) : (
        <ul className={styles.orders}>
          {list.map((o) => (
            <li key={o.id}>
              <div className={styles.line}>
                <Link to={`/results/orders/${o.id}`} data-testid={`order-${o.test}`}>
                  {o.test_label}
                </Link>
                <StatusTag status={o.status} />
                {o.overdue && <span className={styles.danger}>{t('results.overdue')}</span>}
              </div>
              {o.results.length > 0 && (
                <div className={styles.lineTight}>
                  <OrderFlags order={o} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  )
}
