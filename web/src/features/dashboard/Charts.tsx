// The dashboard's charts (DashboardPage.tsx): appointments by day and status, registrations by
// month, the month's top diagnoses, and patients by age band and sex, each drawn by ECharts
// (components/LazyChart) in the frame's colours: its text and lines as the light components
// draw theirs, bars in the clinic's colour (the shell's --emr-primary, followed as it changes).
import dayjs from 'dayjs'
import { useMemo, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyChart as Chart, type ChartOption } from '../../components/LazyChart'
import { appointmentStatusLabel, sexLabel } from '../../lib/labels'
import { EmptyImage } from '../../light/icons'
import { SEXES, STATUSES, type AppointmentFigures, type DiagnosisFigures, type PatientFigures } from './api/types'
import styles from './DashboardPage.module.css'

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

// The frame's text and line colours (the library's, which the light components copy).
const TEXT = 'rgba(0, 0, 0, 0.88)'
const SECONDARY = '#595959'
const BORDER = '#d9d9d9'
const SPLIT = 'rgba(5, 5, 5, 0.06)'
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif"

/** The clinic's colour as the shell sets it on the root (--emr-primary), followed when the theme changes. */
function usePrimary() {
  return useSyncExternalStore(
    (changed) => {
      const watch = new MutationObserver(changed)
      watch.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] })
      return () => watch.disconnect()
    },
    () => getComputedStyle(document.documentElement).getPropertyValue('--emr-primary').trim() || '#3178c2',
  )
}

/** Axis and text colours, the number format of the user's language, and the clinic's colour. */
function useChartBase() {
  const primary = usePrimary()
  const { i18n } = useTranslation()
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language])
  return useMemo(
    () => ({
      number,
      base: {
        textStyle: { color: TEXT, fontFamily: FONT },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? number.format(v) : String(v)) },
        legend: { bottom: 0, textStyle: { color: SECONDARY } },
        grid: { left: 8, right: 16, top: 16, bottom: 48, containLabel: true },
        aria: { enabled: true },
      },
      axis: {
        axisLine: { lineStyle: { color: BORDER } },
        axisLabel: { color: SECONDARY },
        splitLine: { lineStyle: { color: SPLIT } },
      },
      // A count axis: whole numbers, written as the user's language writes them.
      counts: {
        type: 'value',
        minInterval: 1,
        axisLine: { lineStyle: { color: BORDER } },
        axisLabel: { color: SECONDARY, formatter: (v: number) => number.format(v) },
        splitLine: { lineStyle: { color: SPLIT } },
      },
      primary,
    }),
    [primary, number],
  )
}

export function AppointmentsChart({ figures }: { figures: AppointmentFigures }) {
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

export function RegistrationsChart({ figures }: { figures: PatientFigures }) {
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

export function DiagnosesChart({ figures }: { figures: DiagnosisFigures }) {
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
  if (figures.top.length === 0)
    return (
      <div className={styles.empty}>
        <EmptyImage />
        <div>{t('home.noDiagnoses')}</div>
      </div>
    )
  return <Chart option={option} label={t('home.diagnosesChart')} testId="chart-diagnoses" height={Math.max(200, 40 + figures.top.length * 32)} />
}

export function AgesChart({ figures }: { figures: PatientFigures }) {
  const { t } = useTranslation()
  const { base, axis, counts } = useChartBase()
  const option = useMemo<ChartOption>(
    () => ({
      baseOption: {
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
      },
      // On a phone's narrow chart the legend takes two lines: the axis's name stays above them.
      media: [{ query: { maxWidth: 400 }, option: { grid: { ...(base.grid as object), bottom: 72 } } }],
    }),
    [figures, base, axis, counts, t],
  )
  return <Chart option={option} label={t('home.agesChart')} testId="chart-ages" />
}
