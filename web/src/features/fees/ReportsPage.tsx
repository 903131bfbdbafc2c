import { DownloadOutlined } from '@ant-design/icons'
import { Button, Card, Col, Empty, Flex, Radio, Row, Segmented, Statistic, Table, Typography } from 'antd'
import dayjs from 'dayjs'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { formatDay } from '../../lib/time'
import { useBillsReport } from './api/getBillsReport'
import { useRevenue } from './api/getRevenue'
import { useOutstanding } from './api/listOutstanding'
import { csvHref } from './api/reports'
import { useFeeSettings } from './api/feeSettings'
import { BillStatus } from './bill/BillStatus'
import { useMoney, type Money } from './bill/useMoney'
import { DateRangeInput } from '../../components/DateInput'

const DAY = 'YYYY-MM-DD'
const TABS = ['bills', 'revenue', 'outstanding'] as const
type TabKey = (typeof TABS)[number]

/** /fees/reports — bills over a date range, revenue by service or doctor, outstanding balances; each as CSV. */
export default function ReportsPage() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const tab: TabKey = TABS.includes(params.get('tab') as TabKey) ? (params.get('tab') as TabKey) : 'bills'
  const { data: settings } = useFeeSettings()
  const money = useMoney(settings?.currency ?? 'USD', settings?.minor_units ?? 2)
  return (
    <Card title={t('reports.title')}>
      {/* Buttons, not tabs: on a phone they wrap onto a second line, where tabs would hide some behind a menu. */}
      <Radio.Group
        optionType="button"
        value={tab}
        onChange={(e) => setParams({ tab: e.target.value as string }, { replace: true })}
        aria-label={t('reports.title')}
        style={{ marginBottom: 16 }}
        options={[
          { value: 'bills', label: t('reports.bills') },
          { value: 'revenue', label: t('reports.revenue') },
          { value: 'outstanding', label: t('reports.outstanding') },
        ]}
      />
      {tab === 'bills' && <BillsTab money={money} />}
      {tab === 'revenue' && <RevenueTab money={money} />}
      {tab === 'outstanding' && <OutstandingTab money={money} />}
    </Card>
  )
}

/** A report's pages as the server serves them: the sizes it takes, the total it counted. */
const paged = (page: number, perPage: number, total: number | undefined, setPage: (p: number) => void, setPerPage: (n: number) => void) => ({
  current: page,
  pageSize: perPage,
  total: total ?? 0,
  pageSizeOptions: [10, 15, 20, 30, 50],
  showSizeChanger: true,
  onChange: (p: number, size: number) => (setPage(p), setPerPage(size)),
})

export function CsvButton({ href }: { href: string }) {
  const { t } = useTranslation()
  return (
    <Button icon={<DownloadOutlined aria-hidden />} href={href} download>
      {t('reports.csv')}
    </Button>
  )
}

function Toolbar({ children, csv }: { children?: ReactNode; csv: string }) {
  return (
    <Flex gap={8} wrap justify="space-between" align="center" style={{ marginBottom: 12 }}>
      <Flex gap={8} wrap align="center">
        {children}
      </Flex>
      <CsvButton href={csv} />
    </Flex>
  )
}

/** The date range of a report, the month so far unless chosen. */
function useRange() {
  const [range, setRange] = useState<[string, string]>([dayjs().startOf('month').format(DAY), dayjs().format(DAY)])
  const { t } = useTranslation()
  const picker = (
    <DateRangeInput
      value={[dayjs(range[0]), dayjs(range[1])]}
      allowClear={false}
      onChange={(v) => v?.[0] && v[1] && setRange([v[0].format(DAY), v[1].format(DAY)])}
      aria-label={t('reports.range')}
    />
  )
  return { from: range[0], to: range[1], picker }
}

function BillsTab({ money }: { money: Money }) {
  const { t } = useTranslation()
  const { from, to, picker } = useRange()
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(20)
  const { data, isFetching } = useBillsReport(from, to, page, perPage)
  const totals = data?.totals
  return (
    <>
      <Toolbar csv={csvHref('bills', { from, to })}>{picker}</Toolbar>
      {/* In place before the figures arrive (each waits as a placeholder), on a grid that does not
          follow the figures' widths, so the table does not jump when they come. */}
      <Row gutter={[24, 16]} style={{ marginBottom: 16 }}>
        {[
          { key: 'bills', title: t('reports.billCount'), value: totals?.bills },
          // The rows list void bills too: their count is shown, so the figures add up to the rows.
          totals && totals.void > 0 && { key: 'void', title: t('reports.voidCount'), value: totals.void },
          totals && totals.credited > 0 && { key: 'credited', title: t('bill.credited'), value: money.format(totals.credited) },
          { key: 'total', title: t('bill.total'), value: totals && money.format(totals.total) },
          { key: 'discount', title: t('bill.discount'), value: totals && money.format(totals.discount) },
          { key: 'paid', title: t('bill.paid'), value: totals && money.format(totals.paid) },
          { key: 'outstanding', title: t('reports.outstanding'), value: totals && money.format(totals.outstanding) },
        ]
          .filter((f) => !!f)
          .map((f) => (
            <Col key={f.key} xs={12} sm={8} lg={4}>
              <Statistic title={f.title} value={f.value} loading={!totals} />
            </Col>
          ))}
      </Row>
      <Table
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data?.data ?? []}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.noBills')} /> }}
        pagination={paged(page, perPage, data?.total, setPage, setPerPage)}
        columns={[
          { key: 'number', title: t('bill.billNo'), render: (_, b) => <Link to={`/bills/${b.id}`}>{b.number}</Link> },
          { key: 'day', title: t('reports.date'), responsive: ['md'], render: (_, b) => formatDay(b.finalised_at) },
          { key: 'patient', title: t('appointments.patient'), render: (_, b) => b.patient.name },
          { key: 'doctor', title: t('bill.doctor'), responsive: ['lg'], render: (_, b) => b.doctor },
          { key: 'status', title: t('appointments.statusLabel'), render: (_, b) => <BillStatus bill={b} /> },
          { key: 'discount', title: t('bill.discount'), align: 'end', responsive: ['lg'], render: (_, b) => money.format(b.discount) },
          { key: 'total', title: t('bill.total'), align: 'end', render: (_, b) => money.format(b.total) },
          { key: 'paid', title: t('bill.paid'), align: 'end', responsive: ['md'], render: (_, b) => money.format(b.paid) },
          { key: 'balance', title: t('bill.balance'), align: 'end', responsive: ['sm'], render: (_, b) => money.format(b.balance) },
        ]}
      />
    </>
  )
}

function RevenueTab({ money }: { money: Money }) {
  const { t } = useTranslation()
  const { from, to, picker } = useRange()
  const [by, setBy] = useState<'service' | 'doctor'>('service')
  const { data, isFetching } = useRevenue(from, to, by)
  // The label cells span the columns before the amount (the credited column only by service).
  const span = by === 'service' ? 3 : 2
  return (
    <>
      <Toolbar csv={csvHref('revenue', { from, to, by })}>
        {picker}
        <Segmented
          value={by}
          onChange={(v) => setBy(v as 'service' | 'doctor')}
          options={[
            { value: 'service', label: t('reports.byService') },
            { value: 'doctor', label: t('reports.byDoctor') },
          ]}
        />
      </Toolbar>
      {/* Which day a refund counts on: its bill's, not the day the cash left (the cash-up's). */}
      <Typography.Paragraph type="secondary">{t('reports.revenueBasis')}</Typography.Paragraph>
      <Table
        rowKey="key"
        size="small"
        loading={isFetching}
        pagination={false}
        dataSource={data?.rows ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.noBills')} /> }}
        columns={[
          { key: 'name', title: by === 'service' ? t('bill.service') : t('bill.doctor'), render: (_, r) => r.name || r.key },
          { key: 'count', title: t('reports.count'), dataIndex: 'count', align: 'end' },
          ...(by === 'service'
            ? [{ key: 'credited', title: t('reports.creditedColumn'), align: 'end' as const, render: (_: unknown, r: { credited: number }) => (r.credited > 0 ? `−${money.format(r.credited)}` : '') }]
            : []),
          { key: 'amount', title: t('reports.amount'), align: 'end', render: (_, r) => money.format(r.amount) },
        ]}
        summary={() =>
          data && data.rows.length > 0 ? (
            <>
              {data.bill_discounts > 0 && (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={span}>
                    {t('reports.billDiscounts')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={span} align="end">
                    −{money.format(data.bill_discounts)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
              {by === 'service' && data.credited_apart > 0 && (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={span}>
                    {t('reports.creditedApart')}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={span} align="end">
                    −{money.format(data.credited_apart)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={span}>
                  <strong>{t('bill.total')}</strong>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={span} align="end">
                  <strong>{money.format(data.total)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            </>
          ) : null
        }
      />
    </>
  )
}

function OutstandingTab({ money }: { money: Money }) {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(20)
  const { data, isFetching } = useOutstanding(page, perPage)
  return (
    <>
      <Toolbar csv={csvHref('outstanding', {})}>
        {data && (
          <Flex gap={24} wrap>
            <Statistic title={t('reports.billCount')} value={data.total} />
            <Statistic title={t('reports.owedInAll')} value={money.format(data.balance)} />
          </Flex>
        )}
      </Toolbar>
      <Table
        rowKey="id"
        size="small"
        loading={isFetching}
        dataSource={data?.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ ...paged(page, perPage, data?.total, setPage, setPerPage), hideOnSinglePage: true }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.nothingOwed')} /> }}
        columns={[
          { key: 'number', title: t('bill.billNo'), render: (_, b) => <Link to={`/bills/${b.id}`}>{b.number}</Link> },
          { key: 'day', title: t('reports.date'), responsive: ['sm'], render: (_, b) => formatDay(b.finalised_at) },
          { key: 'patient', title: t('appointments.patient'), render: (_, b) => `${b.patient.name} · ${b.patient.mrn}` },
          { key: 'total', title: t('bill.total'), align: 'end', responsive: ['md'], render: (_, b) => money.format(b.total) },
          { key: 'balance', title: t('bill.balance'), align: 'end', render: (_, b) => <strong>{money.format(b.balance)}</strong> },
        ]}
      />
    </>
  )
}
