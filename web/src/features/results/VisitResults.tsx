// A visit's lab and imaging orders on the diagnosis page: each test's state and flags, and the
// way to its results. The orders follow the form: a test the doctor orders appears here once
// the form has saved.
import { Card, Empty, List, Space, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { useVisitOrders } from './api/listVisitOrders'
import { OrderFlags, StatusTag } from './ResultParts'

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
    <Card title={t('results.visitTitle')} data-testid="visit-results">
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('results.noOrders')} />
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(o) => (
            <List.Item key={o.id}>
              <Space orientation="vertical" size={2} style={{ width: '100%' }}>
                <Space wrap>
                  <Link to={`/results/orders/${o.id}`} data-testid={`order-${o.test}`}>
                    {o.test_label}
                  </Link>
                  <StatusTag status={o.status} />
                  {o.overdue && <Typography.Text type="danger">{t('results.overdue')}</Typography.Text>}
                </Space>
                {o.results.length > 0 && (
                  <Space wrap size={4}>
                    <OrderFlags order={o} />
                  </Space>
                )}
              </Space>
            </List.Item>
          )}
        />
      )}
    </Card>
  )
}
