import { Empty, Flex, List, Space, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs from 'dayjs'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fullName } from '../../../lib/patient'
import { formatDay } from '../../../lib/time'
import { chartOf, type Appointment } from '../api/types'
import { ConfirmedTag } from '../ConfirmedTag'
import { StatusTag } from '../StatusTag'
import { appointmentTypeLabel } from '../../../lib/labels'

const muted = (a: Appointment) => (a.status === 'cancelled' || a.status === 'no-show' ? 'emr-row-muted' : '')

/** The day's queue as a table (desktop): number, time, patient, doctor (when all are shown), type, reason, status, actions. */
export function QueueTable({ rows, loading, showDoctor, reorderable, number, actions, bill }: {
  rows: Appointment[]
  loading: boolean
  showDoctor: boolean
  reorderable: boolean
  number: (a: Appointment, index: number) => ReactNode
  actions: (a: Appointment) => ReactNode
  /** The appointment's bill tag, for those who see bills. */
  bill: (a: Appointment) => ReactNode
}) {
  const { t } = useTranslation()
  const columns: ColumnsType<Appointment> = [
    { title: t('appointments.queueNo'), dataIndex: 'queue_number', width: reorderable ? 110 : 64, render: (_n: number, a, i) => number(a, i) },
    {
      title: t('appointments.time'),
      dataIndex: 'starts_at',
      width: 130,
      render: (s: string, a) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {dayjs(s).format('HH:mm')}
          <Typography.Text type="secondary"> · {t('appointments.minutes', { count: a.duration_minutes })}</Typography.Text>
        </span>
      ),
    },
    {
      title: t('appointments.patient'),
      key: 'patient',
      render: (_, a) => (
        <Space orientation="vertical" size={0}>
          <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {a.patient.mrn} · {formatDay(a.patient.birth_date)}
          </Typography.Text>
        </Space>
      ),
    },
    ...(showDoctor ? [{ title: t('appointments.doctor'), dataIndex: 'doctor_name', responsive: ['md' as const] }] : []),
    { title: t('appointments.type'), dataIndex: 'type', width: 120, responsive: ['lg'], render: (v: Appointment['type']) => <Tag>{t(appointmentTypeLabel[v])}</Tag> },
    {
      title: t('appointments.reason'),
      dataIndex: 'reason',
      responsive: ['lg'],
      render: (r: string, a) => (
        <span>
          {r || '—'}
          {a.remarks && <Typography.Text type="secondary"> · {a.remarks}</Typography.Text>}
          {a.cancel_reason && <Typography.Text type="secondary"> · {a.cancel_reason}</Typography.Text>}
        </span>
      ),
    },
    {
      title: t('appointments.statusLabel'),
      dataIndex: 'status',
      width: 130,
      render: (s: Appointment['status'], a) => (
        <Space orientation="vertical" size={4}>
          <StatusTag status={s} />
          <ConfirmedTag appointment={a} />
          {bill(a)}
        </Space>
      ),
    },
    { title: t('appointments.actionsLabel'), key: 'actions', width: 180, render: (_, a) => actions(a) },
  ]
  return (
    <Table<Appointment>
      rowKey="id"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={false}
      // As wide as the screen, the text wrapping within it, every column (Actions too) in
      // view at 1366 px; scrolled sideways only where even wrapped it cannot fit.
      scroll={{ x: true }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('appointments.empty')} /> }}
      rowClassName={muted}
      summary={() =>
        rows.length > 0 ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={columns.length}>
              <Typography.Text type="secondary">
                {t('appointments.summary', { count: rows.length, waiting: rows.filter((a) => a.status === 'arrived').length, done: rows.filter((a) => a.status === 'completed').length })}
              </Typography.Text>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        ) : null
      }
    />
  )
}

/** The day's queue as cards (a phone): every action within reach, nothing scrolled sideways. */
export function QueueCards({ rows, loading, showDoctor, number, actions, bill }: {
  rows: Appointment[]
  loading: boolean
  showDoctor: boolean
  number: (a: Appointment, index: number) => ReactNode
  actions: (a: Appointment) => ReactNode
  bill: (a: Appointment) => ReactNode
}) {
  const { t } = useTranslation()
  return (
    <List
      loading={loading}
      dataSource={rows}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('appointments.empty')} /> }}
      renderItem={(a, i) => (
        <List.Item key={a.id} className={muted(a)} style={{ display: 'block' }}>
          <Flex justify="space-between" align="center" gap={8}>
            <Space size={6}>
              {number(a, i)}
              <Typography.Text strong>{dayjs(a.starts_at).format('HH:mm')}</Typography.Text>
            </Space>
            <Space size={4} wrap>
              {bill(a)}
              <StatusTag status={a.status} />
              <ConfirmedTag appointment={a} />
            </Space>
          </Flex>
          <div style={{ margin: '4px 0 8px' }}>
            <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
            <Typography.Text type="secondary">
              {' '}
              · {a.patient.mrn}
              {showDoctor && ` · ${a.doctor_name}`}
              {a.reason && ` · ${a.reason}`}
            </Typography.Text>
          </div>
          {actions(a)}
        </List.Item>
      )}
    />
  )
}
