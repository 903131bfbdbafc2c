import { LeftOutlined, RightOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Calendar, Card, Col, Empty, Flex, Row, Skeleton, Space, Statistic, Tag, theme, Typography } from 'antd'
import dayjs from 'dayjs'
import { useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { LazyChart as Chart, type ChartOption } from '../../components/LazyChart'
import { useCan } from '../../lib/auth/can'
import { Slot } from '../../lib/slots'
import { formatMoney } from '../../lib/money'
import { meQuery } from '../../lib/auth/me'
import { useAppointmentFigures } from './api/getAppointmentFigures'
import { useCollectedToday } from './api/getCollectedToday'
import { useOrdersToCharge } from '../../lib/ordersToCharge'
import { useDiagnosisFigures } from './api/getDiagnosisFigures'
import { usePatientFigures } from './api/getPatientFigures'
import { SEXES, STATUSES, total, type AppointmentFigures, type DiagnosisFigures, type PatientFigures } from './api/types'
import { appointmentStatusColor, appointmentStatusLabel, sexLabel } from '../../lib/labels'

// Status colours, as the queue's tags show them.
const STATUS_COLOURS: Record<string, string> = {
  booked: '#1677ff',
  arrived: '#faad14',
  'in-progress': '#722ed1',
  completed: '#52c41a',
  cancelled: '#bfbfbf',
  'no-show': '#ff4d4f',
}
const SEX_COLOURS: Record<string, string> = { female: '#eb2f96', male: '#1677ff', other: '#13c2c2', unknown: '#bfbfbf' }

/** The landing page: the clinic at a glance, each figure for those who may see it, live. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation()
  const { data: me } = useQuery(meQuery)
  const [now] = useState(() => new Date())
  const today = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(now)
  const seeAppointments = useCan('view appointment')
  const seePatients = useCan('view patient')
  const seeDiagnoses = useCan('write diagnosis')
  const appointments = useAppointmentFigures(seeAppointments)
  const patients = usePatientFigures(seePatients)
  const diagnoses = useDiagnosisFigures(seeDiagnoses)
  const seeMoney = useCan('view financial reports')
  const collected = useCollectedToday(seeMoney)
  // The desk's list of the day's lab orders to charge (or to refund), as a count that opens it.
  const takesPayments = useCan('record payment')
  const seeOrders = takesPayments || seeMoney
  const orders = useOrdersToCharge(dayjs().format('YYYY-MM-DD'), seeOrders)

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <div>
        <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
          {t('home.welcome', { name: me?.name ?? '' })}
        </Typography.Title>
        <Space wrap size={[8, 4]}>
          <Typography.Text type="secondary">{today}</Typography.Text>
          <Typography.Text type="secondary">·</Typography.Text>
          <Typography.Text type="secondary">{t('home.roles')}</Typography.Text>
          {me?.roles.map((role) => (
            <Tag key={role} color="blue">
              {t(`roles.${role}`, { defaultValue: role })}
            </Tag>
          ))}
        </Space>
      </div>
      <Row gutter={[16, 16]}>
        {seeAppointments && <AppointmentCards figures={appointments.data} myId={me?.id} doctor={!!me?.roles.includes('doctor')} />}
        {seePatients && <PatientCards figures={patients.data} />}
        <Slot name="dashboardResults" />
        {seeMoney && (
          <FigureCard
            title={t('home.collectedToday')}
            value={collected.data && formatMoney(collected.data.collected, collected.data.currency, collected.data.minor_units, i18n.language)}
            to="/fees/reports"
            testId="figure-collected"
            extra={collected.data && <Typography.Text type="secondary">{t('home.paymentsToday', { count: collected.data.payments })}</Typography.Text>}
          />
        )}
        {seeOrders && (
          <FigureCard
            title={t('home.ordersToCharge')}
            value={orders.data?.data.length}
            to="/fees/orders-to-charge"
            testId="figure-orders-to-charge"
            extra={orders.data && <Typography.Text type="secondary">{t('home.ordersToChargeHint')}</Typography.Text>}
          />
        )}
      </Row>
      <Row gutter={[16, 16]}>
        {seeAppointments && <ChartCard title={t('home.appointmentsChart')}>{appointments.data && <AppointmentsChart figures={appointments.data} />}</ChartCard>}
        {seePatients && <ChartCard title={t('home.patientsChart')}>{patients.data && <RegistrationsChart figures={patients.data} />}</ChartCard>}
        {seeDiagnoses && <ChartCard title={t('home.diagnosesChart')}>{diagnoses.data && <DiagnosesChart figures={diagnoses.data} />}</ChartCard>}
        {seePatients && <ChartCard title={t('home.agesChart')}>{patients.data && <AgesChart figures={patients.data} />}</ChartCard>}
        <Col xs={24} xl={12}>
          <Card title={t('home.calendar')}>
            <Calendar
              fullscreen={false}
              defaultValue={dayjs()}
              // A header of its own: Ant Design's month and year pickers carry no label.
              headerRender={({ value, onChange }) => (
                <Flex justify="space-between" align="center" style={{ paddingBottom: 8 }}>
                  <Button type="text" icon={<LeftOutlined aria-hidden />} aria-label={t('home.prevMonth')} onClick={() => onChange(value.subtract(1, 'month'))} />
                  <Typography.Text strong data-testid="calendar-month">
                    {value.locale(dayjs.locale()).format('MMMM YYYY')}
                  </Typography.Text>
                  <Button type="text" icon={<RightOutlined aria-hidden />} aria-label={t('home.nextMonth')} onClick={() => onChange(value.add(1, 'month'))} />
                </Flex>
              )}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  )
}

/** A chart's card, with a placeholder of a chart's height until its figures arrive. */
function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Col xs={24} xl={12}>
      <Card title={title}>{children || <Skeleton.Node active style={{ width: '100%', height: 300 }} />}</Card>
    </Col>
  )
}

/** A figure on a card that opens the list it counts. */
function FigureCard({ title, value, to, testId, extra }: { title: string; value?: number | string; to: string; testId: string; extra?: ReactNode }) {
  const { i18n } = useTranslation()
  return (
    <Col xs={12} md={8} xl={4}>
      <Link to={to} data-testid={testId} style={{ display: 'block', height: '100%' }}>
        <Card hoverable size="small" style={{ height: '100%' }}>
          <Statistic title={title} value={value ?? '–'} loading={value === undefined} formatter={(v) => (typeof v === 'number' ? new Intl.NumberFormat(i18n.language).format(v) : v)} />
          {extra}
        </Card>
      </Link>
    </Col>
  )
}

function AppointmentCards({ figures, myId, doctor }: { figures?: AppointmentFigures; myId?: number; doctor: boolean }) {
  const { t } = useTranslation()
  const queue = `/appointments/appointments?date=${figures?.today.day ?? ''}`
  const byStatus = figures && (
    <Space wrap size={[4, 4]} style={{ marginTop: 8 }}>
      {STATUSES.filter((s) => figures.today.by_status[s] > 0).map((s) => (
        <Tag key={s} color={appointmentStatusColor[s]} style={{ marginInlineEnd: 0 }}>
          {t(appointmentStatusLabel[s])} {figures.today.by_status[s]}
        </Tag>
      ))}
    </Space>
  )
  return (
    <>
      <FigureCard title={t('home.appointmentsToday')} value={figures && total(figures.today)} to={queue} testId="figure-today" extra={byStatus} />
      <FigureCard title={t('home.waitingNow')} value={figures?.waiting} to={`${queue}&status=arrived`} testId="figure-waiting" />
      {/* A doctor's own queue (the server counts it for doctors): its card waits in place for the figures. */}
      {(figures ? figures.mine : doctor) && (
        <FigureCard title={t('home.myQueue')} value={figures?.mine && total(figures.mine)} to={`${queue}&doctor=${myId}`} testId="figure-mine" />
      )}
    </>
  )
}

function PatientCards({ figures }: { figures?: PatientFigures }) {
  const { t } = useTranslation()
  return (
    <>
      <FigureCard title={t('home.patientsTotal')} value={figures?.total} to="/masterfile/patients" testId="figure-patients" />
      <FigureCard title={t('home.registeredThisMonth')} value={figures?.this_month} to="/masterfile/patients" testId="figure-registered" />
    </>
  )
}

/** Axis and text colours from the current theme, so charts read in light and dark alike. */
function useChartBase() {
  const { token } = theme.useToken()
  const { i18n } = useTranslation()
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language])
  return useMemo(
    () => ({
      number,
      base: {
        textStyle: { color: token.colorText, fontFamily: token.fontFamily },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? number.format(v) : String(v)) },
        legend: { bottom: 0, textStyle: { color: token.colorTextSecondary } },
        grid: { left: 8, right: 16, top: 16, bottom: 48, containLabel: true },
        aria: { enabled: true },
      },
      axis: {
        axisLine: { lineStyle: { color: token.colorBorder } },
        axisLabel: { color: token.colorTextSecondary },
        splitLine: { lineStyle: { color: token.colorSplit } },
      },
      // A count axis: whole numbers, written as the user's language writes them.
      counts: {
        type: 'value',
        minInterval: 1,
        axisLine: { lineStyle: { color: token.colorBorder } },
        axisLabel: { color: token.colorTextSecondary, formatter: (v: number) => number.format(v) },
        splitLine: { lineStyle: { color: token.colorSplit } },
      },
      primary: token.colorPrimary,
    }),
    [token, number],
  )
}

function AppointmentsChart({ figures }: { figures: AppointmentFigures }) {
  const { t, i18n } = useTranslation()
  const { base, axis, counts } = useChartBase()
  const option = useMemo<ChartOption>(() => {
    const day = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short' })
    return {
      ...base,
      xAxis: { type: 'category', data: figures.days.map((d) => day.format(dayjs(d.day).toDate())), ...axis },
      yAxis: counts,
      series: STATUSES.map((s) => ({
        name: t(appointmentStatusLabel[s]),
        type: 'bar',
        stack: 'day',
        itemStyle: { color: STATUS_COLOURS[s] },
        data: figures.days.map((d) => d.by_status[s] ?? 0),
      })),
    }
  }, [figures, base, axis, counts, t, i18n.language])
  return <Chart option={option} label={t('home.appointmentsChart')} testId="chart-appointments" />
}

function RegistrationsChart({ figures }: { figures: PatientFigures }) {
  const { t, i18n } = useTranslation()
  const { base, axis, counts, primary } = useChartBase()
  const option = useMemo<ChartOption>(() => {
    const month = new Intl.DateTimeFormat(i18n.language, { month: 'short', year: '2-digit' })
    return {
      ...base,
      legend: { show: false },
      grid: { ...(base.grid as object), bottom: 16 },
      xAxis: { type: 'category', data: figures.months.map((m) => month.format(dayjs(`${m.month}-01`).toDate())), ...axis },
      yAxis: counts,
      series: [{ name: t('home.newPatients'), type: 'bar', itemStyle: { color: primary }, data: figures.months.map((m) => m.n) }],
    }
  }, [figures, base, axis, counts, primary, t, i18n.language])
  return <Chart option={option} label={t('home.patientsChart')} testId="chart-registrations" />
}

function DiagnosesChart({ figures }: { figures: DiagnosisFigures }) {
  const { t } = useTranslation()
  const { base, axis, counts, primary } = useChartBase()
  const option = useMemo<ChartOption>(() => {
    const top = [...figures.top].reverse() // the largest at the top
    return {
      ...base,
      legend: { show: false },
      grid: { ...(base.grid as object), bottom: 16 },
      xAxis: counts,
      // Code and label; long labels are cut on the axis and whole in the tooltip.
      yAxis: { type: 'category', data: top.map((d) => (d.label ? `${d.code} ${d.label}` : d.code)), ...axis, axisLabel: { ...axis.axisLabel, width: 150, overflow: 'truncate' } },
      series: [{ name: t('home.visits'), type: 'bar', itemStyle: { color: primary }, label: { show: true, position: 'right' }, data: top.map((d) => d.n) }],
    }
  }, [figures, base, axis, counts, primary, t])
  if (figures.top.length === 0) return <Empty description={t('home.noDiagnoses')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
  return <Chart option={option} label={t('home.diagnosesChart')} testId="chart-diagnoses" height={Math.max(200, 40 + figures.top.length * 32)} />
}

function AgesChart({ figures }: { figures: PatientFigures }) {
  const { t } = useTranslation()
  const { base, axis, counts } = useChartBase()
  const option = useMemo<ChartOption>(
    () => ({
      ...base,
      xAxis: { type: 'category', name: t('home.age'), nameLocation: 'middle', nameGap: 28, data: figures.ages.map((a) => a.band), ...axis },
      yAxis: counts,
      series: SEXES.map((s) => ({
        name: t(sexLabel[s]),
        type: 'bar',
        stack: 'band',
        itemStyle: { color: SEX_COLOURS[s] },
        data: figures.ages.map((a) => a.by_sex[s] ?? 0),
      })),
    }),
    [figures, base, axis, counts, t],
  )
  return <Chart option={option} label={t('home.agesChart')} testId="chart-ages" />
}
