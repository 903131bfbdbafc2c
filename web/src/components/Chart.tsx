// A chart drawn by ECharts (only the pieces the app uses are bundled), as SVG so it stays
// sharp and needs no script beyond our own. It follows its box's size. Load it lazily
// (LazyChart): ECharts is large, and a page's figures should not wait for it.
import { BarChart, LineChart } from 'echarts/charts'
import { AriaComponent, GridComponent, LegendComponent, MarkAreaComponent, TooltipComponent } from 'echarts/components'
import * as echarts from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'
import { useEffect, useRef } from 'react'

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, MarkAreaComponent, TooltipComponent, AriaComponent, SVGRenderer])

export type ChartOption = echarts.EChartsCoreOption

/** One chart; label names it for screen readers (its data is in the page's figures too). */
export default function Chart({ option, label, height = 300, testId }: { option: ChartOption; label: string; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<echarts.ECharts | undefined>(undefined)
  useEffect(() => {
    const el = box.current!
    const c = echarts.init(el, undefined, { renderer: 'svg' })
    chart.current = c
    const resize = new ResizeObserver(() => c.resize())
    resize.observe(el)
    return () => {
      resize.disconnect()
      c.dispose()
      chart.current = undefined
    }
  }, [])
  useEffect(() => {
    chart.current?.setOption(option, true)
  }, [option])
  return <div ref={box} role="img" aria-label={label} data-testid={testId} style={{ width: '100%', height }} />
}
