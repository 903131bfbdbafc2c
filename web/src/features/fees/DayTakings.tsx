import { Empty, Flex, Statistic, Table, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { csvHref } from './api/reports'
import type { CashUp } from './api/types'
import type { Money } from './bill/useMoney'
import { CsvButton } from './ReportsPage'

/** A day's takings by method and by cashier's drawer, net of refunds (every method, not only cash), with their CSV. */
export function DayTakings({ data, money, day }: { data: CashUp; money: Money; day: string }) {
  const { t } = useTranslation()
  const total = data.total
  return (
    <>
      <Flex gap={24} wrap align="end" justify="space-between" style={{ margin: '24px 0 16px' }}>
        <Flex gap={24} wrap>
          <Statistic title={t('reports.received')} value={money.format(total.received)} />
          <Statistic title={t('reports.refunded')} value={money.format(total.refunded)} />
          <Statistic title={t('reports.net')} value={money.format(total.net)} data-testid="cash-up-net" />
        </Flex>
        <CsvButton href={csvHref('cash-up', { day })} />
      </Flex>
      <Typography.Title level={5}>{t('reports.byMethod')}</Typography.Title>
      <Table
        rowKey="method"
        size="small"
        pagination={false}
        dataSource={data.methods}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.noMoney')} /> }}
        data-testid="cash-up-methods"
        columns={[
          { key: 'method', title: t('bill.method'), render: (_, m) => t(`bill.methods.${m.method}`) },
          { key: 'payments', title: t('reports.payments'), dataIndex: 'payments', align: 'end', responsive: ['sm'] },
          { key: 'received', title: t('reports.received'), align: 'end', render: (_, m) => money.format(m.received) },
          { key: 'refunded', title: t('reports.refunded'), align: 'end', responsive: ['sm'], render: (_, m) => money.format(m.refunded) },
          { key: 'net', title: t('reports.net'), align: 'end', render: (_, m) => <strong>{money.format(m.net)}</strong> },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('reports.byCashier')}
      </Typography.Title>
      <Table
        rowKey={(r) => `${r.cashier_id}-${r.method}`}
        size="small"
        pagination={false}
        dataSource={data.rows}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.noMoney')} /> }}
        columns={[
          { key: 'cashier', title: t('bill.cashier'), render: (_, r) => r.cashier },
          { key: 'method', title: t('bill.method'), render: (_, r) => t(`bill.methods.${r.method}`) },
          { key: 'received', title: t('reports.received'), align: 'end', responsive: ['sm'], render: (_, r) => money.format(r.received) },
          { key: 'refunded', title: t('reports.refunded'), align: 'end', responsive: ['md'], render: (_, r) => money.format(r.refunded) },
          { key: 'net', title: t('reports.net'), align: 'end', render: (_, r) => <strong>{money.format(r.net)}</strong> },
        ]}
      />
    </>
  )
}
