// What the Growth card draws: for one indicator, the WHO SD lines and the child's points, on
// an age axis (months under 5 years, years after) or, for weight-for-length/height, on the
// length axis. Pure, so that it is tested without a chart.
import type { ChartOption } from '../../components/LazyChart'
import type { Growth, GrowthPoint, Indicator } from './api/getGrowth'

export const INDICATORS: Indicator[] = ['wfa', 'lhfa', 'wfl', 'hcfa', 'bfa']

/** The WHO's month, in days (365.25 / 12). */
export const DAYS_PER_MONTH = 30.4375

/** The unit (an i18n key under growth.units) of each indicator's measurement. */
export const UNITS: Record<Indicator, string> = { wfa: 'kg', lhfa: 'cm', wfl: 'kg', hcfa: 'cm', bfa: 'bmi' }

/** The age a point is scored at: corrected for prematurity where that applies. */
export const scoredAge = (p: GrowthPoint) => p.corrected_age_days ?? p.age_days

/** The measurement an indicator plots (y), and what it runs along (x), of a point; null when not measured. */
export function plotted(p: GrowthPoint, indicator: Indicator, inYears: boolean): [number, number] | null {
  const age = scoredAge(p) / DAYS_PER_MONTH / (inYears ? 12 : 1)
  const y = { wfa: p.weight, lhfa: p.height, wfl: p.weight, hcfa: p.head, bfa: p.bmi }[indicator]
  if (y == null) return null
  if (indicator === 'wfl') return p.height == null || p.z.wfl == null ? null : [p.height, y]
  return [age, y]
}

/** Whether ages are shown in years: the curves run past 5 years. */
export function agesInYears(g: Growth): boolean {
  const rows = g.curves.wfa?.rows ?? g.curves.lhfa?.rows ?? g.curves.bfa?.rows ?? []
  const last = rows.length > 0 ? rows[rows.length - 1].age_days : g.age_days
  return last > 61 * DAYS_PER_MONTH
}

const SD_COLOURS: Record<string, string> = { '-3': '#cf1322', '-2': '#d46b08', '0': '#389e0d', '2': '#d46b08', '3': '#cf1322' }

export interface Labels {
  x: string
  y: string
  sd: (sd: number) => string
  child: string
  value: (x: number) => string
}

/** The chart of one indicator: its SD lines (dashed beyond ±2) and the child's points joined in time order. */
export function growthOption(g: Growth, indicator: Indicator, labels: Labels): ChartOption | null {
  const curve = g.curves[indicator]
  if (!curve || curve.rows.length === 0) return null
  const inYears = agesInYears(g)
  const xOf = (r: { age_days: number; cm?: number }) => (indicator === 'wfl' ? (r.cm ?? 0) : r.age_days / DAYS_PER_MONTH / (inYears ? 12 : 1))
  const lines = curve.sds.map((sd, i) => ({
    type: 'line',
    name: labels.sd(sd),
    showSymbol: false,
    silent: true,
    lineStyle: { width: sd === 0 ? 2 : 1.5, type: Math.abs(sd) === 3 ? 'dashed' : 'solid', color: SD_COLOURS[String(sd)] },
    itemStyle: { color: SD_COLOURS[String(sd)] },
    data: curve.rows.map((r) => [Number(xOf(r).toFixed(3)), r.values[i]]),
    z: 1,
  }))
  const points = g.points.map((p) => plotted(p, indicator, inYears)).filter((p): p is [number, number] => p !== null)
  const xs = curve.rows.map(xOf)
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 28, bottom: 92 },
    legend: { bottom: 0, itemWidth: 18, data: [...curve.sds.map(labels.sd), labels.child] },
    tooltip: { trigger: 'item', formatter: (item: { seriesName: string; value: [number, number] }) => `${item.seriesName}<br/>${labels.value(item.value[0])}: ${item.value[1]}` },
    xAxis: { type: 'value', name: labels.x, nameLocation: 'middle', nameGap: 26, min: Math.min(...xs), max: Math.max(...xs), axisLabel: { formatter: (v: number) => labels.value(v) } },
    yAxis: { type: 'value', name: labels.y, scale: true },
    series: [
      ...lines,
      { type: 'line', name: labels.child, data: points, symbol: 'circle', symbolSize: 8, lineStyle: { width: 2, color: '#1677ff' }, itemStyle: { color: '#1677ff' }, z: 3 },
    ],
  }
}

/** A severe flag (−3 SD, or obesity) is red; the others are gold. */
export const flagColour = (code: string) => (code.startsWith('severe_') || code === 'obesity' ? 'red' : 'gold')
