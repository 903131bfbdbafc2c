import { Alert, Flex, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useVisitOrderCharges } from '../api/getBill'

/**
 * The visit's ordered tests beside its bill: how many are ordered and charged, and — for the
 * desk to act on — a test charged by no price-list service, one ordered after the bill was
 * final, and a cancelled order a final bill still charges (a refund to consider, ADR 41).
 */
export function OrderCharges({ appointmentId, billStatus }: { appointmentId: number; billStatus?: string }) {
  const { t } = useTranslation()
  const { data } = useVisitOrderCharges(appointmentId)
  if (!data || data.orders.length === 0) return null
  const wanted = data.orders.filter((o) => !o.withdrawn)
  const unlinked = wanted.filter((o) => o.line_id == null && !o.linked)
  const late = wanted.filter((o) => o.line_id == null && o.linked)
  const refund = data.orders.filter((o) => o.withdrawn && o.line_id != null)
  const names = (list: typeof data.orders) => list.map((o) => o.label || o.test).join(', ')
  return (
    <Flex vertical gap={8} data-testid="order-charges">
      <Typography.Text strong={data.charged < data.ordered}>{t('bill.orderedCharged', { ordered: data.ordered, charged: data.charged })}</Typography.Text>
      {unlinked.length > 0 && <Alert type="warning" showIcon title={t('bill.ordersNotLinked', { tests: names(unlinked), count: unlinked.length })} />}
      {late.length > 0 && (
        <Alert type="warning" showIcon title={t(billStatus === 'draft' ? 'bill.ordersNotCharged' : 'bill.ordersAfterFinal', { tests: names(late), count: late.length })} />
      )}
      {refund.length > 0 && <Alert type="error" showIcon title={t('bill.cancelledStillCharged', { tests: names(refund), count: refund.length })} />}
    </Flex>
  )
}
