import { Card, Empty, Flex, Table, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DateInput } from '../../components/DateInput'
import { useOrdersToCharge, type OrderToCharge } from '../../lib/ordersToCharge'

const DAY = 'YYYY-MM-DD'

/**
 * /fees/orders-to-charge — the desk's day list of lab orders to act on: ordered on a visit of
 * the day and not charged (ordered after the patient paid and left, or of a test linked to no
 * price-list service), and cancelled but still charged (ADR 41). Each opens its bill.
 */
export default function OrdersToChargePage() {
  const { t } = useTranslation()
  const [day, setDay] = useState(dayjs().format(DAY))
  const { data, isLoading } = useOrdersToCharge(day)
  const problem = (o: OrderToCharge) => {
    if (o.problem === 'cancelled_charged') return <Tag color="red">{t('ordersToCharge.cancelledCharged')}</Tag>
    if (o.zero_price) return <Tag color="orange">{t('ordersToCharge.zeroPrice')}</Tag>
    return <Tag color="orange">{t(o.linked ? 'ordersToCharge.notCharged' : o.service_inactive ? 'ordersToCharge.serviceInactive' : 'ordersToCharge.notLinked')}</Tag>
  }
  return (
    <Card title={t('ordersToCharge.title')}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <DateInput value={dayjs(day)} allowClear={false} onChange={(d: Dayjs | null) => d && setDay(d.format(DAY))} aria-label={t('reports.day')} />
        <Typography.Text type="secondary">{t('ordersToCharge.hint')}</Typography.Text>
      </Flex>
      <Table<OrderToCharge>
        rowKey="order_id"
        size="small"
        loading={isLoading}
        dataSource={data?.data ?? []}
        pagination={false}
        scroll={data?.data?.length ? { x: 'max-content' } : undefined}
        locale={{ emptyText: <Empty description={t('ordersToCharge.none')} /> }}
        columns={[
          { key: 'time', title: t('ordersToCharge.time'), render: (_, o) => dayjs(o.starts_at).format('HH:mm') },
          { key: 'patient', title: t('ordersToCharge.patient'), render: (_, o) => `${o.patient.name} · ${o.patient.mrn}` },
          { key: 'test', title: t('ordersToCharge.test'), render: (_, o) => o.label || o.test },
          { key: 'problem', title: t('ordersToCharge.problem'), render: (_, o) => problem(o) },
          { key: 'doctor', title: t('ordersToCharge.doctor'), responsive: ['md'], render: (_, o) => o.doctor },
          {
            key: 'open',
            title: <span className="visually-hidden">{t('ordersToCharge.openBill')}</span>,
            render: (_, o) => (o.bill_id != null ? <Link to={`/bills/${o.bill_id}`}>{t('ordersToCharge.openBill')}</Link> : <Typography.Text type="secondary">{t('ordersToCharge.noBill')}</Typography.Text>),
          },
        ]}
      />
    </Card>
  )
}
