// A patient's immunisations on the chart (issue 59): the forecast on top (each antigen's next
// dose, what is overdue first), then the record in date order — every dose with its product,
// lot, site and who gave it, a dose the forecast does not count marked invalid with why, an entry
// entered in error struck through, reactions under their dose — and the refusals and
// contraindications. The nurse and the doctor give a dose, record one given elsewhere, a refusal
// or contraindication, a reaction, or mark an entry entered in error.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../lib/auth/can'
import { formatDay } from '../../lib/time'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Empty } from '../../light/Empty'
import { PlusIcon } from '../../light/icons'
import { Spin } from '../../light/Spin'
import { Table, type Column } from '../../light/Table'
import { Tag } from '../../light/Tag'
import { useCatalogue } from './api/getCatalogue'
import { useImmunisations } from './api/getImmunisations'
import type { Catalogue, Evaluation, ImmunisationRecord, Reaction, Recommendation } from './api/types'
import { ElsewhereDialog, ExclusionDialog, InErrorDialog, ReactionDialog } from './Dialogs'
import { GiveDialog } from './GiveDialog'
import { antigenNames, STATUS_COLOUR, STATUS_ORDER } from './parts'
import styles from './immunisations.module.css'

type Open = { kind: 'give'; vaccine?: string } | { kind: 'elsewhere' | 'exclusion' } | { kind: 'reaction' | 'error'; r: ImmunisationRecord } | null

/** The forecast's rows, overdue first, then due, upcoming and the rest; by due date within each. */
export function sortForecast(rows: Recommendation[]) {
  const rank = (r: Recommendation) => {
    const i = STATUS_ORDER.indexOf(r.status)
    return i < 0 ? STATUS_ORDER.length : i
  }
  return [...rows].sort((a, b) => rank(a) - rank(b) || (a.due_on ?? '9999').localeCompare(b.due_on ?? '9999') || a.antigen.localeCompare(b.antigen))
}

const day = (d?: string) => (d ? formatDay(d) : '—')

/** A day written with hyphens (2026-06-26) kept on one line in a narrow cell: non-breaking hyphens. */
const unbroken = (text: string) => text.replace(/-/g, '\u2011')

function ForecastTable({ rows, catalogue, titleId, onGive }: { rows: Recommendation[]; catalogue: Catalogue | undefined; titleId: string; onGive?: (vaccine: string) => void }) {
  const { t } = useTranslation()
  const antigen = new Map((catalogue?.antigens ?? []).map((a) => [a.key, a.name]))
  const vaccine = new Map((catalogue?.vaccines ?? []).map((v) => [v.key, v.name]))
  const schedule = new Map((catalogue?.schedules ?? []).map((s) => [s.key, s.name]))
  const several = new Set(rows.map((r) => r.schedule)).size > 1
  const open = (r: Recommendation) => ['due', 'overdue', 'upcoming'].includes(r.status)
  const stocked = new Set(catalogue?.clinic.stocked ?? [])
  const doseOf = (r: Recommendation) => (open(r) && r.dose_number ? t('immunisations.doseOf', { n: r.dose_number, total: r.doses }) : '—')
  const columns: Column<Recommendation>[] = [
    {
      key: 'antigen',
      header: t('immunisations.antigen'),
      cell: (r) => (
        <>
          <strong>{antigen.get(r.antigen) ?? r.antigen}</strong>
          {several && <div className={styles.muted}>{schedule.get(r.schedule) ?? r.schedule}</div>}
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
  const product = (r: Recommendation) => r.vaccines.find((v) => stocked.has(v)) ?? r.vaccines[0]
  if (onGive)
    columns.push({
      key: 'give',
      header: <span className="visually-hidden">{t('immunisations.actions')}</span>,
      cell: (r) =>
        (r.status === 'due' || r.status === 'overdue') && product(r) ? (
          <Button size="small" aria-label={t('immunisations.giveNamed', { antigen: antigen.get(r.antigen) ?? r.antigen, n: r.dose_number })} onClick={() => onGive(product(r) ?? '')}>
            {t('immunisations.giveShort')}
          </Button>
        ) : null,
    })
  return (
    <Table
      columns={columns}
      rows={sortForecast(rows)}
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

const REASONS = ['too_early', 'too_close', 'not_needed', 'expired', 'wrong_vaccine', 'product_age', 'live_interval']

/** The marks of a dose the forecast does not count: for which antigen (of a combination) and why. */
function InvalidMarks({ evaluations, catalogue }: { evaluations: Evaluation[]; catalogue: Catalogue | undefined }) {
  const { t } = useTranslation()
  const invalid = evaluations.filter((e) => !e.valid)
  if (!invalid.length) return null
  // One line per reason, naming the antigens of a combination it holds for (a clinic on two schedules reads a dose twice: once each).
  const reasons = [...new Set(invalid.map((e) => e.reason ?? ''))]
  const whole = evaluations.every((e) => !e.valid) && reasons.length === 1
  const why = (reason?: string) => t(`immunisations.invalidReason.${reason && REASONS.includes(reason) ? reason : 'other'}`)
  return (
    <div className={styles.invalid} data-testid="invalid-dose">
      <span className={styles.cross} aria-hidden>
        ✕
      </span>
      <div>
        {whole ? (
          <strong>{t('immunisations.invalid', { reason: why(reasons[0]) })}</strong>
        ) : (
          reasons.map((reason) => (
            <strong key={reason} className={styles.invalidLine}>
              {t('immunisations.invalidFor', { antigen: antigenNames(catalogue, [...new Set(invalid.filter((e) => (e.reason ?? '') === reason).map((e) => e.antigen))]), reason: why(reason) })}
            </strong>
          ))
        )}
      </div>
    </div>
  )
}

/** Who gave it: a user here, or where it was recorded from. */
function givenBy(t: (k: string, o?: Record<string, unknown>) => string, r: ImmunisationRecord) {
  if (r.kind === 'elsewhere') {
    const source = r.source ? t(`immunisations.source.${r.source}`) : ''
    return t('immunisations.elsewhereFrom', { source: [source, r.place].filter(Boolean).join(', ') || '—' })
  }
  return t('immunisations.givenBy', { name: r.given_by_name || r.performer || '—' })
}

function ReactionLine({ x }: { x: Reaction }) {
  const { t } = useTranslation()
  const what = [t(`immunisations.reaction.${x.reaction}`, { defaultValue: x.reaction }), t(`immunisations.severity.${x.severity}`)].join(', ')
  return (
    <li data-testid="reaction">
      <Tag color={x.serious || x.severity === 'severe' ? 'red' : 'orange'}>{t('immunisations.aefi')}</Tag> <strong>{what}</strong>
      {x.serious && <> · {t('immunisations.serious')}</>} · {t('immunisations.onset', { date: formatDay(x.onset_on) })}
      {x.description && <> · {x.description}</>}
      {x.reported_to && <> · {t('immunisations.reportedTo', { to: x.reported_to })}</>}
    </li>
  )
}

function DoseItem({ r, evaluations, reactions, catalogue, canWrite, onOpen }: { r: ImmunisationRecord; evaluations: Evaluation[]; reactions: Reaction[]; catalogue: Catalogue | undefined; canWrite: boolean; onOpen(o: Open): void }) {
  const { t } = useTranslation()
  const inError = r.status === 'entered_in_error'
  const counted = evaluations.filter((e) => e.valid && e.dose_number > 0)
  const doseNumbers = [...new Set(counted.map((e) => e.dose_number))]
  const dose = doseNumbers.length === 1 ? doseNumbers[0] : r.dose_number
  const combination = r.antigens.length > 1
  const name = r.vaccine_name || r.vaccine
  const where = [r.site && t(`immunisations.site.${r.site}`, { defaultValue: r.site }), r.route && t(`immunisations.route.${r.route}`, { defaultValue: r.route })].filter(Boolean).join(', ')
  const lot = [r.lot && t('immunisations.lotIs', { lot: r.lot }), r.expiry && t('immunisations.expiryIs', { date: formatDay(r.expiry) })].filter(Boolean).join(', ')
  const invalid = !inError && evaluations.some((e) => !e.valid)
  const head = (
    <>
      <strong>{formatDay(r.occurred_on)}</strong> · <strong>{name}</strong>
      {combination && <span className={styles.muted}> ({antigenNames(catalogue, r.antigens)})</span>}
      {dose ? <> · {t('immunisations.doseN', { n: dose })}</> : null}
    </>
  )
  return (
    <li className={[styles.item, invalid ? styles.invalidItem : '', inError ? styles.inErrorItem : ''].filter(Boolean).join(' ')} data-testid="dose">
      <div className={styles.row}>
        <div className={styles.grow}>
          <div>{inError ? <s>{head}</s> : head}</div>
          {inError && <div className={styles.errorReason}>{t('immunisations.inErrorBecause', { reason: r.error_reason })}</div>}
          {!inError && <InvalidMarks evaluations={evaluations} catalogue={catalogue} />}
          <div className={`${styles.small} ${styles.muted}`}>{[lot, where, givenBy(t, r)].filter(Boolean).join(' · ')}</div>
          {!inError && r.overridden?.length > 0 && (
            <div className={styles.small}>
              <Tag color="orange">{t('immunisations.overridden')}</Tag> {r.override_reason}
            </div>
          )}
          {r.note && <div className={styles.small}>{r.note}</div>}
          {reactions.length > 0 && <ul className={styles.reactions}>{reactions.map((x) => <ReactionLine key={x.id} x={x} />)}</ul>}
        </div>
        {canWrite && !inError && (
          <div className={styles.buttons}>
            {r.kind === 'given' && (
              <Button size="small" aria-label={t('immunisations.reactionNamed', { vaccine: name, date: formatDay(r.occurred_on) })} onClick={() => onOpen({ kind: 'reaction', r })}>
                {t('immunisations.addReaction')}
              </Button>
            )}
            <Button size="small" variant="dangerText" aria-label={t('immunisations.inErrorNamed', { what: name, date: formatDay(r.occurred_on) })} onClick={() => onOpen({ kind: 'error', r })}>
              {t('immunisations.inError')}
            </Button>
          </div>
        )}
      </div>
    </li>
  )
}

function ExclusionItem({ r, canWrite, onOpen }: { r: ImmunisationRecord; canWrite: boolean; onOpen(o: Open): void }) {
  const { t } = useTranslation()
  const inError = r.status === 'entered_in_error'
  const name = r.antigen_name || r.antigen
  const head = (
    <>
      <Tag color={r.kind === 'refused' ? 'purple' : 'magenta'}>{t(`immunisations.kind.${r.kind}`)}</Tag> <strong>{name}</strong> · {t('immunisations.fromDate', { date: formatDay(r.occurred_on) })}
      {r.until_on ? ` · ${t('immunisations.untilDate', { date: formatDay(r.until_on) })}` : ''}
    </>
  )
  return (
    <li className={[styles.item, inError ? styles.inErrorItem : ''].filter(Boolean).join(' ')} data-testid="exclusion">
      <div className={styles.row}>
        <div className={styles.grow}>
          <div>{inError ? <s>{head}</s> : head}</div>
          {inError && <div className={styles.errorReason}>{t('immunisations.inErrorBecause', { reason: r.error_reason })}</div>}
          <div className={styles.small}>{r.reason}</div>
          <div className={`${styles.small} ${styles.muted}`}>{t('immunisations.recordedBy', { name: r.created_by_name })}</div>
        </div>
        {canWrite && !inError && (
          <div className={styles.buttons}>
            <Button size="small" variant="dangerText" aria-label={t('immunisations.inErrorNamed', { what: name, date: formatDay(r.occurred_on) })} onClick={() => onOpen({ kind: 'error', r })}>
              {t('immunisations.inError')}
            </Button>
          </div>
        )}
      </div>
    </li>
  )
}

/** The chart's immunisations card. */
export function PatientImmunisations({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const canWrite = useCan('record immunisations')
  const data = useImmunisations(patientId)
  const catalogue = useCatalogue()
  const [open, setOpen] = useState<Open>(null)
  const close = () => setOpen(null)
  const records = data.data?.records ?? []
  const doses = records.filter((r) => r.kind === 'given' || r.kind === 'elsewhere').sort((a, b) => a.occurred_on.localeCompare(b.occurred_on) || a.id - b.id)
  const exclusions = records.filter((r) => r.kind === 'refused' || r.kind === 'contraindicated').sort((a, b) => a.occurred_on.localeCompare(b.occurred_on) || a.id - b.id)
  const evaluations = data.data?.forecast.evaluations ?? []
  const reactions = data.data?.reactions ?? []
  const forecast = data.data?.forecast.recommendations ?? []
  const titleId = `immunisations-forecast-${patientId}`
  return (
    <Card
      look="panel"
      level={3}
      data-testid="immunisations"
      title={t('immunisations.title')}
      extra={
        canWrite && (
          <div className={styles.buttons}>
            <Button size="small" variant="primary" icon={<PlusIcon />} onClick={() => setOpen({ kind: 'give' })}>
              {t('immunisations.give')}
            </Button>
            <Button size="small" onClick={() => setOpen({ kind: 'elsewhere' })}>
              {t('immunisations.elsewhere')}
            </Button>
            <Button size="small" onClick={() => setOpen({ kind: 'exclusion' })}>
              {t('immunisations.exclusion')}
            </Button>
          </div>
        )
      }
    >
      {data.isLoading ? (
        <div className={styles.loading}>
          <Spin />
        </div>
      ) : data.isError ? (
        <p className={styles.muted}>{t('immunisations.loadFailed')}</p>
      ) : (
        <>
          <h4 id={titleId} className={styles.section}>
            {t('immunisations.forecast', { date: formatDay(data.data?.forecast.as_of || data.data?.as_of || '') })}
          </h4>
          <div data-testid="forecast">
            <ForecastTable rows={forecast} catalogue={catalogue.data} titleId={titleId} onGive={canWrite ? (vaccine) => setOpen({ kind: 'give', vaccine }) : undefined} />
          </div>
          <h4 className={styles.section}>{t('immunisations.record')}</h4>
          {doses.length === 0 ? (
            <Empty small image={false}>
              {t('immunisations.noDoses')}
            </Empty>
          ) : (
            <ul className={styles.list} data-testid="record">
              {doses.map((r) => (
                <DoseItem
                  key={r.id}
                  r={r}
                  evaluations={evaluations.filter((e) => e.record_id === r.id)}
                  reactions={reactions.filter((x) => x.immunisation_id === r.id)}
                  catalogue={catalogue.data}
                  canWrite={canWrite}
                  onOpen={setOpen}
                />
              ))}
            </ul>
          )}
          {exclusions.length > 0 && (
            <>
              <h4 className={styles.section}>{t('immunisations.exclusions')}</h4>
              <ul className={styles.list} data-testid="exclusions">
                {exclusions.map((r) => (
                  <ExclusionItem key={r.id} r={r} canWrite={canWrite} onOpen={setOpen} />
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {open?.kind === 'give' && <GiveDialog patientId={patientId} vaccine={open.vaccine} onClose={close} />}
      {open?.kind === 'elsewhere' && <ElsewhereDialog patientId={patientId} onClose={close} />}
      {open?.kind === 'exclusion' && <ExclusionDialog patientId={patientId} onClose={close} />}
      {open?.kind === 'reaction' && <ReactionDialog patientId={patientId} r={open.r} onClose={close} />}
      {open?.kind === 'error' && <InErrorDialog patientId={patientId} r={open.r} onClose={close} />}
    </Card>
  )
}
