import { ArrowDownOutlined, ArrowUpOutlined, BookOutlined, DownOutlined, LeftOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons'
import { App, Button, Card, DatePicker, Dropdown, Empty, Flex, Grid, Input, List, Modal, Segmented, Select, Space, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs from 'dayjs'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { fullName } from '../../lib/patient'
import { useChangeStatus, type StatusAction } from './api/changeStatus'
import { useAppointments } from './api/listAppointments'
import { useDoctors } from './api/listDoctors'
import { useReorderQueue } from './api/reorderQueue'
import { chartOf, STATUSES, type Appointment } from './api/types'
import { BookingModal } from './BookingModal'
import { CodesDrawer } from './CodesDrawer'
import { StatusTag } from './StatusTag'
import { WeekCalendar } from './WeekCalendar'
import { focusFirstField } from '../../components/focusFirstField'
import { dateFormat, formatDay } from '../../lib/time'

const DATE = 'YYYY-MM-DD'

/** Monday of the week that contains day. */
const weekStart = (day: string) => {
  const d = dayjs(day)
  return d.subtract((d.day() + 6) % 7, 'day').format(DATE)
}

/** /appointments/appointments: the day's queue per doctor, or a doctor's week. */
export default function AppointmentsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const canManage = useCan('manage appointment')
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const canCatalogue = useCan('manage catalogue')
  const screens = Grid.useBreakpoint()
  const [params, setParams] = useSearchParams()
  const view = params.get('view') === 'week' ? 'week' : 'queue'
  const date = dayjs(params.get('date') ?? '', DATE, true).isValid() ? params.get('date')! : dayjs().format(DATE)
  const doctors = useDoctors()
  const doctorParam = Number(params.get('doctor')) || undefined
  // The week is always one doctor's: the chosen one, else the first.
  const doctorId = view === 'week' ? (doctorParam ?? doctors.data?.[0]?.id) : doctorParam
  const status = STATUSES.includes(params.get('status') as never) ? params.get('status')! : undefined
  const from = weekStart(date)

  const queue = useAppointments({ date, doctor_id: doctorId, status }, view === 'queue')
  const week = useAppointments({ from, to: dayjs(from).add(6, 'day').format(DATE), doctor_id: doctorId }, view === 'week' && Boolean(doctorId))
  const changeStatus = useChangeStatus()
  const reorder = useReorderQueue()
  // ?book=PATIENT opens the booking form for that patient (the chart's "Book appointment").
  const bookFor = Number(params.get('book')) || undefined
  const [booking, setBooking] = useState<{ appointment?: Appointment } | null>(bookFor && canManage ? {} : null)
  const [cancelling, setCancelling] = useState<Appointment | null>(null)
  const [cancelReason, setCancelReason] = useState('')
  const [codesOpen, setCodesOpen] = useState(false)

  const update = useCallback(
    (next: Record<string, string | number | undefined>) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev)
          for (const [k, v] of Object.entries(next)) {
            if (v === undefined || v === '') p.delete(k)
            else p.set(k, String(v))
          }
          return p
        },
        { replace: true },
      ),
    [setParams],
  )

  const act = (a: Appointment, action: StatusAction, reason?: string) =>
    changeStatus.mutateAsync({ a, action, reason }).then(() => {
      void message.success(t(`appointments.done.${action}`))
      if (action === 'start') navigate(`/appointments/form/${a.id}`)
    })

  const rows = queue.data?.data ?? []
  // Reordering needs the whole queue of one doctor.
  const canReorder = canManage && Boolean(doctorId) && !status
  const move = (index: number, delta: number) => {
    const ids = rows.map((a) => a.id)
    const [id] = ids.splice(index, 1)
    ids.splice(index + delta, 0, id)
    reorder.mutate({ date, doctor_id: doctorId!, ids }, { onSuccess: () => void message.success(t('appointments.reordered')) })
  }

  const actions = (a: Appointment) => {
    const primary: React.ReactNode[] = []
    const more: { key: string; label: string; danger?: boolean; onClick: () => void }[] = []
    const form = () => navigate(`/appointments/form/${a.id}`)
    if (a.status === 'booked' && canManage) primary.push(<Button key="arrive" size="small" type="primary" onClick={() => void act(a, 'arrive')}>{t('appointments.actions.arrive')}</Button>)
    if (a.status === 'arrived' && canDiagnose) primary.push(<Button key="start" size="small" type="primary" onClick={() => void act(a, 'start')}>{t('appointments.actions.start')}</Button>)
    if (a.status === 'arrived' && canVitals && !canDiagnose) primary.push(<Button key="vitals" size="small" type="primary" onClick={form}>{t('appointments.actions.vitals')}</Button>)
    if ((a.status === 'in-progress' || a.status === 'completed') && (canDiagnose || canVitals))
      primary.push(<Button key="form" size="small" type={a.status === 'in-progress' ? 'primary' : 'default'} onClick={form}>{t('appointments.actions.diagnosis')}</Button>)
    if (a.status === 'in-progress' && canDiagnose) more.push({ key: 'complete', label: t('appointments.actions.complete'), onClick: () => void act(a, 'complete') })
    if ((a.status === 'booked' || a.status === 'arrived') && canManage) {
      more.push({ key: 'edit', label: t('appointments.actions.edit'), onClick: () => setBooking({ appointment: a }) })
      if (a.status === 'booked') more.push({ key: 'no-show', label: t('appointments.actions.noShow'), onClick: () => void act(a, 'no-show') })
      more.push({ key: 'cancel', label: t('appointments.actions.cancel'), danger: true, onClick: () => { setCancelReason(''); setCancelling(a) } })
    }
    return (
      <Space size={4} wrap>
        {primary}
        {more.length > 0 && (
          <Dropdown menu={{ items: more }} trigger={['click']}>
            <Button size="small" aria-label={t('appointments.moreFor', { name: fullName(a.patient) })}>
              {t('appointments.more')} <DownOutlined aria-hidden />
            </Button>
          </Dropdown>
        )}
      </Space>
    )
  }

  const columns: ColumnsType<Appointment> = [
    {
      title: t('appointments.queueNo'),
      dataIndex: 'queue_number',
      width: canReorder ? 110 : 64,
      render: (n: number, _a, i) => (
        <Space size={2}>
          <Typography.Text strong style={{ minWidth: 22, display: 'inline-block' }}>{n}</Typography.Text>
          {canReorder && (
            <>
              <Button size="small" type="text" icon={<ArrowUpOutlined aria-hidden />} disabled={i === 0 || reorder.isPending} onClick={() => move(i, -1)} aria-label={t('appointments.moveUp', { number: n })} />
              <Button size="small" type="text" icon={<ArrowDownOutlined aria-hidden />} disabled={i === rows.length - 1 || reorder.isPending} onClick={() => move(i, 1)} aria-label={t('appointments.moveDown', { number: n })} />
            </>
          )}
        </Space>
      ),
    },
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
    ...(doctorId ? [] : [{ title: t('appointments.doctor'), dataIndex: 'doctor_name', responsive: ['md' as const] }]),
    {
      title: t('appointments.type'),
      dataIndex: 'type',
      width: 120,
      responsive: ['lg'],
      render: (v: string) => <Tag>{t(`appointments.types.${v}`)}</Tag>,
    },
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
    { title: t('appointments.statusLabel'), dataIndex: 'status', width: 130, render: (s: Appointment['status']) => <StatusTag status={s} /> },
    { title: t('appointments.actionsLabel'), key: 'actions', width: 220, render: (_, a) => actions(a) },
  ]

  const shift = (days: number) => update({ date: dayjs(date).add(days, 'day').format(DATE) })
  const step = view === 'week' ? 7 : 1

  return (
    <Card>
      <Flex wrap gap={12} justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('appointments.title')}
        </Typography.Title>
        <Flex wrap gap={8}>
          <Segmented
            value={view}
            onChange={(v) => update({ view: v === 'week' ? 'week' : undefined })}
            options={[
              { value: 'queue', label: t('appointments.viewQueue') },
              { value: 'week', label: t('appointments.viewWeek') },
            ]}
          />
          {canCatalogue && (
            <Button icon={<BookOutlined aria-hidden />} onClick={() => setCodesOpen(true)}>
              {t('codes.title')}
            </Button>
          )}
          {canManage && (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setBooking({})}>
              {t('appointments.book')}
            </Button>
          )}
        </Flex>
      </Flex>
      <Flex wrap gap={8} align="center" style={{ marginBottom: 16 }}>
        <Space.Compact>
          <Button icon={<LeftOutlined aria-hidden />} onClick={() => shift(-step)} aria-label={view === 'week' ? t('appointments.prevWeek') : t('appointments.prevDay')} />
          <DatePicker
            value={dayjs(date)}
            allowClear={false}
            onChange={(d) => d && update({ date: d.format(DATE) })}
            aria-label={t('appointments.date')}
            picker={view === 'week' ? 'week' : 'date'}
            // The week as its Monday–Sunday dates, not a week number.
            format={view === 'week' ? (d) => `${formatDay(weekStart(d.format(DATE)))} – ${formatDay(dayjs(weekStart(d.format(DATE))).add(6, 'day').toDate())}` : dateFormat()}
            style={view === 'week' ? { width: 190 } : undefined}
          />
          <Button icon={<RightOutlined aria-hidden />} onClick={() => shift(step)} aria-label={view === 'week' ? t('appointments.nextWeek') : t('appointments.nextDay')} />
        </Space.Compact>
        <Button onClick={() => update({ date: undefined })}>{t('appointments.today')}</Button>
        <Select
          style={{ minWidth: 200 }}
          value={doctorId ?? 0}
          aria-label={t('appointments.doctor')}
          onChange={(v) => update({ doctor: v || undefined })}
          options={[
            ...(view === 'queue' ? [{ value: 0, label: t('appointments.allDoctors') }] : []),
            ...(doctors.data ?? []).map((d) => ({ value: d.id, label: d.name })),
          ]}
        />
        {view === 'queue' && (
          <Select
            style={{ minWidth: 160 }}
            value={status ?? ''}
            aria-label={t('appointments.statusLabel')}
            onChange={(v) => update({ status: v || undefined })}
            options={[{ value: '', label: t('appointments.allStatuses') }, ...STATUSES.map((s) => ({ value: s, label: t(`appointments.status.${s}`) }))]}
          />
        )}
      </Flex>
      {view === 'queue' && !screens.md ? (
        // A phone gets the queue as cards: every action within reach, nothing scrolled sideways.
        <List
          loading={queue.isFetching && !queue.data}
          dataSource={rows}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('appointments.empty')} /> }}
          renderItem={(a, i) => (
            <List.Item key={a.id} className={a.status === 'cancelled' || a.status === 'no-show' ? 'emr-row-muted' : ''} style={{ display: 'block' }}>
              <Flex justify="space-between" align="center" gap={8}>
                <Space size={6}>
                  {columns[0].render!(a.queue_number, a, i) as React.ReactNode}
                  <Typography.Text strong>{dayjs(a.starts_at).format('HH:mm')}</Typography.Text>
                </Space>
                <StatusTag status={a.status} />
              </Flex>
              <div style={{ margin: '4px 0 8px' }}>
                <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
                <Typography.Text type="secondary">
                  {' '}
                  · {a.patient.mrn}
                  {!doctorId && ` · ${a.doctor_name}`}
                  {a.reason && ` · ${a.reason}`}
                </Typography.Text>
              </div>
              {actions(a)}
            </List.Item>
          )}
        />
      ) : view === 'queue' ? (
        <Table<Appointment>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={queue.isFetching && !queue.data}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('appointments.empty')} /> }}
          rowClassName={(a) => (a.status === 'cancelled' || a.status === 'no-show' ? 'emr-row-muted' : '')}
          summary={() =>
            rows.length > 0 ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={columns.length}>
                  <Typography.Text type="secondary">
                    {t('appointments.summary', {
                      count: rows.length,
                      waiting: rows.filter((a) => a.status === 'arrived').length,
                      done: rows.filter((a) => a.status === 'completed').length,
                    })}
                  </Typography.Text>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            ) : null
          }
        />
      ) : doctorId ? (
        <WeekCalendar start={from} appointments={week.data?.data ?? []} onPickDay={(d) => update({ view: undefined, date: d })} />
      ) : (
        <Empty description={t('appointments.noDoctors')} />
      )}
      {booking && (
        <BookingModal
          open
          onClose={() => {
            setBooking(null)
            if (bookFor) update({ book: undefined })
          }}
          appointment={booking.appointment}
          patientId={booking.appointment ? undefined : bookFor}
          date={date}
          doctorId={doctorId}
        />
      )}
      <Modal afterOpenChange={focusFirstField}
        open={cancelling !== null}
        title={t('appointments.cancelTitle', { name: cancelling ? fullName(cancelling.patient) : '' })}
        okText={t('appointments.actions.cancel')}
        okButtonProps={{ danger: true, disabled: cancelReason.trim() === '' }}
        cancelText={t('appointments.keep')}
        confirmLoading={changeStatus.isPending}
        onCancel={() => setCancelling(null)}
        onOk={() => void act(cancelling!, 'cancel', cancelReason).then(() => setCancelling(null))}
        destroyOnHidden
      >
        <Input.TextArea
          aria-label={t('appointments.cancelReason')}
          placeholder={t('appointments.cancelReason')}
          value={cancelReason}
          maxLength={500}
          onChange={(e) => setCancelReason(e.target.value)}
          autoFocus
        />
      </Modal>
      {canCatalogue && <CodesDrawer open={codesOpen} onClose={() => setCodesOpen(false)} />}
    </Card>
  )
}
