import { lazy, Suspense, type ComponentProps } from 'react'
import { Skeleton } from '../light/Skeleton'

// ECharts loads with the first chart on screen, not with the page.
const Chart = lazy(() => import('./Chart'))

export type { ChartOption } from './Chart'

/** A chart (components/Chart), loaded on first use. */
export function LazyChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<Skeleton block={props.height ?? 300} />}>
      <Chart {...props} />
    </Suspense>
  )
}
