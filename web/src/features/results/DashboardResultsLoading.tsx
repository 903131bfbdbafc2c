// What stands in for the dashboard's results figures (DashboardResults.tsx: two cards, for those
// who review results) while their code loads: two cards of the same size in the same row, so the
// figures after them do not jump to the next row. Small, and loaded with the frame.
import { Card, Col, Skeleton } from 'antd'
import { useCan } from '../../lib/auth/can'

export function DashboardResultsLoading() {
  const can = useCan('review results')
  if (!can) return null
  return [0, 1].map((i) => (
    <Col key={i} xs={12} md={8} xl={4}>
      <Card size="small" style={{ height: '100%' }}>
        <Skeleton active title={{ width: '70%' }} paragraph={{ rows: 1, width: '40%' }} />
      </Card>
    </Col>
  ))
}
