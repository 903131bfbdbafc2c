// What stands in for the dashboard's results figures (DashboardResults.tsx: two cards, for those
// who review results) while their code loads: two cards of the same size in the dashboard's grid
// of figures, so the figures after them do not move. Small, and loaded with the frame.
import { useCan } from '../../lib/auth/can'
import { Card } from '../../light/Card'
import { Skeleton } from '../../light/Skeleton'

export function DashboardResultsLoading() {
  const can = useCan('review results')
  if (!can) return null
  return [0, 1].map((i) => (
    <Card key={i} size="small">
      <Skeleton lines={['70%', '40%']} />
    </Card>
  ))
}
