// Trends on the chart: vitals (blood pressure systolic and diastolic together, heart rate,
// temperature, weight and BMI, SpO2) and any test the patient has results of, over a chosen
// time — lines at the collection times with the normal band shaded and always in sight, flags
// in the tooltip, a unit toggle where the test has two, and the same numbers as a table beside
// the chart.
import dayjs from 'dayjs'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyChart as Chart, type ChartOption } from '../../components/LazyChart'
import { formatDay, formatDayTime } from '../../lib/time'
import { Card } from '../../light/Card'
import { Empty } from '../../light/Empty'
import { Pager } from '../../light/Pager'
import { Segmented } from '../../light/Segmented'
import { Table, type Column } from '../../light/Table'
import { useTrend } from './api/getTrend'
import { usePatientVitals } from './api/listPatientVitals'
import type { LabOrder, Trend } from './api/types'
import { decimal, rangeText, unitLabel } from './format'
import { FlagTag } from './ResultParts'
import styles from './results.module.css'
import { SearchSelect } from '../../light/SearchSelect'
import { convert, tickLabel, timeAxis, valueAxis, VITAL_SERIES, type VitalsRow } from './trendMath'

const RANGES = { '1y': 1, '5y': 5, all: 100 } as const
/** Values a page of the trend's table shows (the page numbers only once there are more). */
const PAGE = 8
type RangeKey = keyof typeof RANGES

interface Row {
  key: string
  at: string
  values: (number | null)[]
  flag?: string
  delta?: string
}

export function Trends({ patientId, orders, withVitals }: { patientId: number; orders: LabOrder[]; withVitals: boolean }) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const [range, setRange] = useState<RangeKey>('5y')
  const from = dayjs().subtract(RANGES[range], 'year').format('YYYY-MM-DD')
  const analytes = useMemo(() => {
    const seen = new Map<string, string>()
    for (const o of orders) for (const r of o.results) if (r.type === 'numeric' && !seen.has(r.analyte)) seen.set(r.analyte, r.label)
    return [...seen.entries()].map(([code, label]) => ({ code, label }))
  }, [orders])
  const options = [
    ...(withVitals ? VITAL_SERIES.map((v) => ({ value: `vital:${v.key}`, label: t(v.label) })) : []),
    ...analytes.map((a) => ({ value: `test:${a.code}`, label: a.label })),
  ]
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const what = chosen ?? options[0]?.value
  const [kind, code] = what?.split(':') ?? []
  const vitals = usePatientVitals<VitalsRow>(patientId, from, withVitals && kind === 'vital')
  const trend = useTrend(patientId, kind === 'test' ? code : undefined, from)
  const [unit, setUnit] = useState<string | undefined>(undefined)
  const [page, setPage] = useState(1)
  if (options.length === 0) return null

  let title = ''
  let series: { name: string; unit: string }[] = []
  let rows: Row[] = []
  let band: { low: number | null; high: number | null } | null = null
  let bandText = ''
  let decimals = 1
  if (kind === 'vital') {
    const v = VITAL_SERIES.find((s) => s.key === code)!
    title = t(v.label)
    series = v.fields.map((f) => ({ name: t(f.label), unit: t(f.unit) }))
    decimals = v.decimals
    rows = (vitals.data ?? [])
      .map((d) => ({ key: String(d.appointment_id), at: d.day, values: v.fields.map((f) => f.read(d)) }))
      .filter((r) => r.values.some((x) => x != null))
  } else if (trend.data) {
    const tr: Trend = trend.data
    const a = tr.analyte as unknown as { unit: string; decimals: number; label: string; units: { unit: string; conversion: string; factor?: number }[] }
    const shown = unit && (unit === a.unit || a.units.some((u) => u.unit === unit)) ? unit : a.unit
    title = a.label
    decimals = shown === a.unit ? a.decimals : 2
    series = [{ name: a.label, unit: unitLabel(t, shown) }]
    const to = (x: number | null) => (x == null ? null : convert(a, x, shown))
    // Today's range for the patient; without one (no birth date), the latest result's own.
    const latest = tr.points.at(-1)?.range
    const num = (x: string | null | undefined) => (x == null ? null : Number(x))
    const b = (tr.band as { low?: number | null; high?: number | null } | null) ?? (latest ? { low: num(latest.low), high: num(latest.high) } : null)
    band = b ? { low: to(b.low ?? null), high: to(b.high ?? null) } : null
    const bound = (x: number | null) => (x == null ? null : shown === a.unit ? String(x) : x.toFixed(decimals))
    bandText = band ? rangeText(t, { low: bound(band.low), high: bound(band.high) }, shown, lang) : ''
    rows = tr.points.map((p, i) => ({ key: String(i), at: p.observed_at, values: [to(p.value == null ? null : Number(p.value))], flag: p.flag, delta: p.delta }))
  }
  const unitChoices = (() => {
    if (kind !== 'test' || !trend.data) return []
    const a = trend.data.analyte as unknown as { unit: string; units: { unit: string }[] }
    return [a.unit, ...a.units.map((u) => u.unit)]
  })()
  const fmt = (x: number | null) => (x == null ? '—' : decimal(x.toFixed(decimals), lang))
  const when = (at: string) => (kind === 'vital' ? formatDay(at, lang) : formatDayTime(at, lang))
  const points = rows.map((r) => ({ ...r, x: dayjs(r.at).valueOf() }))
  const xAxis = timeAxis(points.map((p) => p.x))
  const yAxis = valueAxis(rows.flatMap((r) => r.values), [band?.low, band?.high])
  const option: ChartOption = {
    // ECharts' own description is English or Chinese only: say it in the reader's language.
    aria: { enabled: true, label: { description: bandText ? t('results.trendLabelBand', { what: title, range: bandText }) : t('results.trendLabel', { what: title }) } },
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number; seriesIndex: number; value: [number, number] }[]) => {
        const row = rows[items[0]?.dataIndex ?? 0]
        if (!row) return ''
        const flag = row.flag && row.flag !== 'N' ? ` (${t(`results.flags.${row.flag}`)})` : ''
        const delta = row.delta ? ` (${t(`results.delta.${row.delta}`)})` : ''
        return [when(row.at), ...series.map((s, i) => `${s.name}: ${fmt(row.values[i])} ${s.unit}${i === 0 ? flag + delta : ''}`)].join('<br/>')
      },
    },
    legend: series.length > 1 ? { top: 0 } : undefined,
    grid: { left: 48, right: 16, top: series.length > 1 ? 32 : 16, bottom: 32 },
    // A value axis of timestamps, not a time axis: the ticks and their labels are our own
    // (timeAxis, tickLabel), and ECharts' time axis reads a level its custom ticks do not have
    // (tick.time.level), which broke the whole chart on some spans of days.
    xAxis: xAxis && {
      type: 'value',
      min: xAxis.min,
      max: xAxis.max,
      axisTick: { customValues: xAxis.ticks },
      axisLabel: { customValues: xAxis.ticks, formatter: (v: number) => tickLabel(xAxis, v, lang) },
    },
    yAxis: { type: 'value', name: series[0]?.unit, ...yAxis, axisLabel: { formatter: (v: number) => decimal(String(v), lang) } },
    series: series.map((s, i) => ({
      name: s.name,
      type: 'line',
      showSymbol: true,
      symbolSize: 7,
      data: points.map((p) => [p.x, p.values[i]]),
      ...(i === 0 && band && (band.low != null || band.high != null)
        ? { markArea: { silent: true, itemStyle: { color: 'rgba(82, 196, 26, 0.12)' }, data: [[{ yAxis: band.low ?? 'min' }, { yAxis: band.high ?? 'max' }]] } }
        : {}),
    })),
  }
  const newest = [...rows].reverse()
  // A page past the end (fewer values after a new choice) shows the last one.
  const shown = Math.min(page, Math.max(1, Math.ceil(newest.length / PAGE)))
  const columns: Column<Row>[] = [
    { key: 'at', header: t('results.date'), cell: (r) => when(r.at) },
    ...series.map((s, i) => ({
      key: String(i),
      header: s.unit ? `${s.name} (${s.unit})` : s.name,
      cell: (r: Row) => (
        <>
          {fmt(r.values[i])} {i === 0 && r.flag && <FlagTag flag={r.flag} delta={r.delta} />}
        </>
      ),
    })),
  ]
  return (
    <Card
      look="panel"
      level={3}
      title={t('results.trendsTitle')}
      data-testid="trends"
      extra={
        <Segmented<RangeKey>
          label={t('results.period')}
          value={range}
          onChange={setRange}
          options={(Object.keys(RANGES) as RangeKey[]).map((k) => ({ value: k, label: t(`results.ranges.${k}`) }))}
        />
      }
    >
      <div className={styles.controls}>
        <SearchSelect className={styles.choice} label={t('results.trendOf')} value={what} options={options} onChange={(v) => (setChosen(v), setUnit(undefined))} />
        {unitChoices.length > 1 && (
          <Segmented
            label={t('results.unit')}
            value={unit ?? unitChoices[0]!}
            onChange={(u) => setUnit(u)}
            options={unitChoices.map((u) => ({ value: u, label: unitLabel(t, u) || t('results.noUnit') }))}
          />
        )}
      </div>
      {rows.length === 0 ? (
        <Empty>{t('results.noPoints')}</Empty>
      ) : (
        <div className={styles.trend}>
          <div>
            <Chart option={option} label={t('results.trendLabel', { what: title })} height={280} testId="trend-chart" />
            {bandText && (
              <span className={styles.secondary} data-testid="trend-band">
                {t('results.trendBand', { range: bandText })}
              </span>
            )}
          </div>
          <div>
            <Table<Row> size="small" rowKey={(r) => r.key} rows={newest.slice((shown - 1) * PAGE, shown * PAGE)} label={t('results.trendTable', { what: title })} columns={columns} />
            {newest.length > PAGE && (
              <div className={styles.pager}>
                <Pager page={shown} pageSize={PAGE} total={newest.length} onChange={setPage} label={t('results.trendTable', { what: title })} />
              </div>
            )}
          </div>
        </div>
      )}
    </Card>
  )
}
