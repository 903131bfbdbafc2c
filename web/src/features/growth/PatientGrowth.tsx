// The chart's Growth card, for a patient under 19: the WHO standards' SD curves with the
// child's points for one indicator at a time, the points as a table with their z-scores and
// percentiles, the WHO cut-off flags, the corrected age of a premature child, and a print of
// the card.
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyChart as Chart } from '../../components/LazyChart'
import printStyles from '../../components/print/print.module.css'
import { sexLabel } from '../../lib/labels'
import { formatDay } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Empty } from '../../light/Empty'
import { PrinterIcon } from '../../light/icons'
import { Segmented } from '../../light/Segmented'
import { Skeleton } from '../../light/Skeleton'
import { Table, type Column } from '../../light/Table'
import { Tag } from '../../light/Tag'
import { useGrowth, type GrowthFlag, type GrowthPoint, type Indicator } from './api/getGrowth'
import { agesInYears, DAYS_PER_MONTH, flagColour, growthOption, INDICATORS, UNITS } from './growthChart'
import styles from './growth.module.css'

/** The measurement an indicator is read from stays on a phone's narrow table; the others from a tablet up. */
const PHONE: Record<Indicator, string> = { wfa: 'weight', lhfa: 'height', wfl: 'weight', hcfa: 'head', bfa: 'bmi' }
const shownOnPhone = (indicator: Indicator, column: string) => (PHONE[indicator] === column ? undefined : ('md' as const))

/**
 * Prints the card alone: a copy of it (the chart is SVG, copied as drawn) goes into the print
 * root the app's print sheet shows by itself (components/print), until the print ends.
 */
function printCard(card: HTMLElement | null) {
  if (!card) return
  const root = document.createElement('div')
  root.className = printStyles.printRoot
  root.dataset.testid = 'growth-print'
  root.appendChild(card.cloneNode(true))
  document.body.appendChild(root)
  window.addEventListener('afterprint', () => root.remove(), { once: true })
  window.print()
}

export function PatientGrowth({ patientId, patientName, birthDate, sex }: { patientId: number; patientName: string; birthDate: string; sex: string }) {
  const { t, i18n } = useTranslation()
  const growth = useGrowth(patientId)
  const box = useRef<HTMLDivElement>(null)
  const [indicator, setIndicator] = useState<Indicator>('wfa')
  const g = growth.data
  const lang = i18n.language
  const num = useMemo(() => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }), [lang])
  const one = useMemo(() => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), [lang])
  const signed = useMemo(() => new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }), [lang])

  const age = (days: number) => {
    const months = Math.floor(days / DAYS_PER_MONTH)
    if (months < 24) return t('growth.ageMonthsDays', { m: months, d: Math.max(0, Math.round(days - months * DAYS_PER_MONTH)) })
    return t('growth.ageYearsMonths', { y: Math.floor(months / 12), m: months % 12 })
  }
  const unit = (i: Indicator) => t(`growth.units.${UNITS[i]}`)
  const inYears = g ? agesInYears(g) : false
  // The flags of the latest measurement that raised any (each row of the table says its own).
  const lastFlagged = g?.flags.reduce((last, f) => (f.on > last ? f.on : last), '') ?? ''
  const current = g?.flags.filter((f) => f.on === lastFlagged) ?? []
  const option = useMemo(
    () =>
      g &&
      growthOption(g, indicator, {
        x: indicator === 'wfl' ? `${t(g.curves.wfl?.measure === 'height' ? 'growth.height' : 'growth.length')}, ${t('growth.units.cm')}` : t(inYears ? 'growth.ageInYears' : 'growth.ageInMonths'),
        y: unit(indicator),
        sd: (sd) => (sd === 0 ? t('growth.median') : t('growth.sd', { sd: signed.format(sd).replace(/[.,]00$/, '') })),
        child: patientName,
        value: (x) => num.format(Number(x.toFixed(indicator === 'wfl' ? 0 : 1))),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels follow the language
    [g, indicator, inYears, patientName, lang],
  )

  const flagsByDay = useMemo(() => {
    const out = new Map<string, GrowthFlag[]>()
    for (const f of g?.flags ?? []) out.set(f.on, [...(out.get(f.on) ?? []), f])
    return out
  }, [g])
  const columns = useMemo<Column<GrowthPoint>[]>(
    () => [
      { key: 'on', header: t('growth.date'), cell: (p) => formatDay(p.on), nowrap: true },
      {
        key: 'age',
        header: t('growth.age'),
        from: 'sm',
        cell: (p) => (
          <>
            {age(p.age_days)}
            {p.corrected_age_days != null && (
              <div className={styles.corrected} data-testid="corrected-age">
                {t('growth.correctedShort', { age: age(p.corrected_age_days) })}
              </div>
            )}
          </>
        ),
      },
      { key: 'weight', header: `${t('growth.weight')}, ${t('growth.units.kg')}`, cell: (p) => (p.weight != null ? num.format(p.weight) : '—'), align: 'end', from: shownOnPhone(indicator, 'weight') },
      { key: 'height', header: `${t('growth.lengthHeight')}, ${t('growth.units.cm')}`, cell: (p) => (p.height != null ? `${num.format(p.height)}${p.measure ? ` (${t(`growth.measure.${p.measure}`)})` : ''}` : '—'), align: 'end', from: shownOnPhone(indicator, 'height') },
      { key: 'head', header: `${t('growth.head')}, ${t('growth.units.cm')}`, cell: (p) => (p.head != null ? num.format(p.head) : '—'), align: 'end', from: shownOnPhone(indicator, 'head') },
      { key: 'bmi', header: `${t('growth.bmi')}, ${t('growth.units.bmi')}`, cell: (p) => (p.bmi != null ? one.format(p.bmi) : '—'), align: 'end', from: shownOnPhone(indicator, 'bmi') },
      { key: 'z', header: t('growth.zOf', { what: t(`growth.short.${indicator}`) }), cell: (p) => (p.z[indicator] != null ? signed.format(p.z[indicator]!) : '—'), align: 'end', nowrap: true },
      { key: 'pct', header: t('growth.percentile'), cell: (p) => (p.pct[indicator] != null ? one.format(p.pct[indicator]!) : '—'), align: 'end' },
      {
        key: 'flags',
        header: t('growth.flagsColumn'),
        from: 'md',
        cell: (p) =>
          (flagsByDay.get(p.on) ?? []).map((f) => (
            <Tag key={f.code} color={flagColour(f.code)}>
              {t(`growth.flags.${f.code}`)}
            </Tag>
          )),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels follow the language
    [indicator, lang, flagsByDay],
  )

  const print = (
    <Button size="small" icon={<PrinterIcon />} onClick={() => printCard(box.current)} className={styles.noPrint} disabled={!g}>
      {t('growth.print')}
    </Button>
  )
  return (
    <div ref={box}>
      <Card level={3} title={t('growth.title')} extra={print} data-testid="growth-card">
        <div className={styles.printHead}>
          <strong>{patientName}</strong> · {t('growth.born', { date: formatDay(birthDate) })} · {t(sexLabel[sex as keyof typeof sexLabel] ?? sex)}
        </div>
        {growth.isPending && <Skeleton block={300} />}
        {g && (
          <div className={styles.body}>
            {g.unscored === 'sex' && <Alert type="info" title={g.message} data-testid="growth-unscored" />}
            {g.corrected && g.gestation_weeks != null && (
              <Alert type="info" title={t('growth.correctedNote', { weeks: g.gestation_weeks })} data-testid="growth-corrected" />
            )}
            {current.length > 0 && (
              <ul className={styles.flags} aria-label={t('growth.flagsLabel')}>
                {current.map((f) => (
                  <li key={`${f.on}-${f.code}`}>
                    <Tag color={flagColour(f.code)} data-testid="growth-flag">
                      {`${t(`growth.flags.${f.code}`)} · ${formatDay(f.on)} · ${t(`growth.short.${f.indicator}`)} z ${signed.format(f.z)}`}
                    </Tag>
                  </li>
                ))}
              </ul>
            )}
            <div className={`${styles.noPrint} ${styles.switch}`}>
              <Segmented
                label={t('growth.indicator')}
                value={indicator}
                onChange={setIndicator}
                options={INDICATORS.map((i) => ({ value: i, label: t(`growth.indicators.${i}`) }))}
              />
            </div>
            <h4 className={styles.printOnly}>{t(`growth.indicators.${indicator}`)}</h4>
            {option ? (
              <Chart option={option} label={t('growth.chartLabel', { what: t(`growth.indicators.${indicator}`), name: patientName })} height={340} testId="growth-chart" />
            ) : (
              g.unscored !== 'sex' && <Empty small>{t('growth.noCurve')}</Empty>
            )}
            <Table
              columns={columns}
              rows={g.points}
              rowKey={(p) => `${p.on}-${p.age_days}-${p.weight}-${p.height}-${p.head}`}
              label={t('growth.tableLabel')}
              size="small"
              wrap
              empty={t('growth.none')}
            />
            <p className={styles.source}>{t('growth.source')}</p>
          </div>
        )}
      </Card>
    </div>
  )
}
