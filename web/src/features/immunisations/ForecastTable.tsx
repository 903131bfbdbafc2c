// The forecast on a patient's chart: the next doses as visits — a combination due on one day
// one line naming its product, each antigen's detail behind a disclosure — overdue first, with
// dates, status and the products (the stocked first), a mark on a dose outside the national
// programme, and a Give button on what is due.
import { useTranslation } from 'react-i18next'
import { formatDay } from '../../lib/time'
import { Button } from '../../light/Button'
import { Table, type Column } from '../../light/Table'
import { Tag } from '../../light/Tag'
import type { Catalogue, Recommendation } from './api/types'
import { groupNext } from './group'
import { STATUS_COLOUR, STATUS_ORDER } from './parts'
import styles from './immunisations.module.css'

/** The forecast's rows, overdue first, then due, upcoming and the rest; by due date within each. */
export function sortForecast(rows: Recommendation[]) {
  const rank = (r: Recommendation) => {
    const i = STATUS_ORDER.indexOf(r.status)
    return i < 0 ? STATUS_ORDER.length : i
  }
  return [...rows].sort((a, b) => rank(a) - rank(b) || (a.due_on ?? '9999').localeCompare(b.due_on ?? '9999') || a.antigen.localeCompare(b.antigen))
}

/** A line of the table: one antigen's dose, or a visit's doses that one product gives (vaccine set). */
interface Line extends Recommendation {
  visit?: { vaccine: string; doses: Recommendation[] }
}

const isOpen = (r: Recommendation) => ['due', 'overdue', 'upcoming', 'deferred'].includes(r.status)

/** The forecast's lines: the open doses grouped into visits (groupNext), a visit of several read as its most pressing dose; the rest one per antigen. */
export function forecastLines(rows: Recommendation[], stocked: string[]): Line[] {
  const open = sortForecast(rows.filter((r) => isOpen(r) && r.due_on))
  const lines: Line[] = groupNext(open, stocked).map((v) => {
    if (v.doses.length < 2 || !v.vaccine) return v.doses[0]
    const first = sortForecast(v.doses)[0]
    return { ...first, outside_programme: v.doses.some((d) => d.outside_programme), visit: { vaccine: v.vaccine, doses: v.doses } }
  })
  return sortForecast([...lines, ...rows.filter((r) => !(isOpen(r) && r.due_on))]) as Line[]
}

const day = (d?: string) => (d ? formatDay(d) : '—')

/** A day written with hyphens (2026-06-26) kept on one line in a narrow cell: non-breaking hyphens. */
const unbroken = (text: string) => text.replace(/-/g, '\u2011')

export function ForecastTable({ rows, catalogue, titleId, onGive }: { rows: Recommendation[]; catalogue: Catalogue | undefined; titleId: string; onGive?: (vaccine: string) => void }) {
  const { t } = useTranslation()
  const antigen = new Map((catalogue?.antigens ?? []).map((a) => [a.key, a.name]))
  const vaccine = new Map((catalogue?.vaccines ?? []).map((v) => [v.key, v.name]))
  const schedule = new Map((catalogue?.schedules ?? []).map((s) => [s.key, s.name]))
  const several = new Set(rows.map((r) => r.schedule)).size > 1
  const open = isOpen
  const stocked = new Set(catalogue?.clinic.stocked ?? [])
  const doseOf = (r: Line) => {
    if (!open(r) || !r.dose_number) return '—'
    // A visit's doses of different numbers are said in its detail.
    if (r.visit && r.visit.doses.some((d) => d.dose_number !== r.dose_number)) return '—'
    return t('immunisations.doseOf', { n: r.dose_number, total: r.doses })
  }
  const named = (r: Line) => (r.visit ? (vaccine.get(r.visit.vaccine) ?? r.visit.vaccine) : (antigen.get(r.antigen) ?? r.antigen))
  const columns: Column<Line>[] = [
    {
      key: 'antigen',
      header: t('immunisations.antigen'),
      cell: (r) => (
        <>
          <strong>{named(r)}</strong>
          {r.visit && <div className={styles.small}>{r.visit.doses.map((d) => antigen.get(d.antigen) ?? d.antigen).join(', ')}</div>}
          {several && <div className={styles.muted}>{[...new Set((r.visit?.doses ?? [r]).map((d) => schedule.get(d.schedule) ?? d.schedule))].join(', ')}</div>}
          {open(r) && r.outside_programme && (
            <div>
              <Tag color="purple" data-testid="outside-programme">
                {t('immunisations.outsideProgramme')}
              </Tag>
            </div>
          )}
          {r.visit && (
            <details className={styles.more} data-testid="visit-detail">
              <summary>{t('immunisations.eachAntigen', { count: r.visit.doses.length })}</summary>
              <ul className={styles.visitDoses}>
                {r.visit.doses.map((d) => (
                  <li key={d.antigen}>
                    {antigen.get(d.antigen) ?? d.antigen}: {t('immunisations.doseOf', { n: d.dose_number, total: d.doses })}, {t(`immunisations.status.${d.status}`, { defaultValue: d.status })}
                  </li>
                ))}
              </ul>
            </details>
          )}
          {/* On a phone the dose is said under the antigen (its column is not shown). */}
          {open(r) && r.dose_number > 0 && <div className={`${styles.phoneOnly} ${styles.small}`}>{t('immunisations.phoneDose', { dose: doseOf(r) })}</div>}
        </>
      ),
    },
    { key: 'dose', header: t('immunisations.dose'), nowrap: true, from: 'sm', cell: doseOf },
    {
      key: 'status',
      header: t('immunisations.statusLabel'),
      cell: (r) => (
        <>
          <Tag color={STATUS_COLOUR[r.status]} data-testid="forecast-status">
            {t(`immunisations.status.${r.status}`, { defaultValue: r.status })}
          </Tag>
          {/* On a phone the due day is said under the status (its column is not shown). */}
          {open(r) && r.due_on && <div className={`${styles.phoneOnly} ${styles.small}`}>{t('immunisations.dueOn', { date: unbroken(formatDay(r.due_on)) })}</div>}
        </>
      ),
    },
    { key: 'earliest', header: t('immunisations.earliest'), nowrap: true, from: 'md', cell: (r) => (open(r) ? day(r.earliest_on) : '—') },
    { key: 'due', header: t('immunisations.due'), nowrap: true, from: 'sm', cell: (r) => (open(r) ? day(r.due_on) : '—') },
    { key: 'overdue', header: t('immunisations.overdueFrom'), nowrap: true, from: 'md', cell: (r) => (open(r) ? day(r.overdue_on) : '—') },
    {
      key: 'vaccines',
      header: t('immunisations.products'),
      from: 'lg',
      cell: (r) => {
        if (r.visit) return vaccine.get(r.visit.vaccine) ?? r.visit.vaccine
        if (!open(r) || !r.vaccines.length) return '—'
        // The clinic's stocked products first; past two, the rest behind a disclosure.
        const names = [...r.vaccines.filter((v) => stocked.has(v)), ...r.vaccines.filter((v) => !stocked.has(v))].map((v) => vaccine.get(v) ?? v)
        if (names.length <= 3) return names.join(', ')
        return (
          <>
            {names.slice(0, 2).join(', ')}
            <details className={styles.more}>
              <summary>{t('immunisations.more', { n: names.length - 2 })}</summary>
              {names.slice(2).join(', ')}
            </details>
          </>
        )
      },
    },
  ]
  // The nurse gives a dose that is due from its row: the dialog opens on a product that gives it, one the clinic stocks if any.
  const product = (r: Line) => r.visit?.vaccine ?? r.vaccines.find((v) => stocked.has(v)) ?? r.vaccines[0]
  if (onGive)
    columns.push({
      key: 'give',
      header: <span className="visually-hidden">{t('immunisations.actions')}</span>,
      cell: (r) =>
        (r.status === 'due' || r.status === 'overdue') && product(r) ? (
          <Button size="small" aria-label={r.visit ? t('immunisations.giveProduct', { vaccine: named(r) }) : t('immunisations.giveNamed', { antigen: named(r), n: r.dose_number })} onClick={() => onGive(product(r) ?? '')}>
            {t('immunisations.giveShort')}
          </Button>
        ) : null,
    })
  return (
    <Table
      columns={columns}
      rows={forecastLines(rows, catalogue?.clinic.stocked ?? [])}
      rowKey={(r) => `${r.schedule}-${r.antigen}`}
      labelledBy={titleId}
      size="small"
      wrap
      emptyImage={false}
      empty={t('immunisations.noForecast')}
      rowClass={(r) => (r.status === 'overdue' ? styles.overdueRow : undefined)}
    />
  )
}
