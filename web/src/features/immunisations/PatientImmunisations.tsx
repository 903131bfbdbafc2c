// A patient's immunisations on the chart (issue 59): the forecast on top (each antigen's next
// dose, what is overdue first), then the record in date order — every dose with its product,
// lot, site and who gave it, a dose the forecast does not count marked invalid with why, an entry
// entered in error struck through, the screening before it and the reactions under their dose (a
// serious one not yet reported marked) — and the refusals and
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
import { Tag } from '../../light/Tag'
import { useCatalogue } from './api/getCatalogue'
import { useImmunisations } from './api/getImmunisations'
import type { Catalogue, Evaluation, ImmunisationRecord, Reaction } from './api/types'
import { ElsewhereDialog, ExclusionDialog, InErrorDialog } from './Dialogs'
import { CardDialog } from './CardDialog'
import { DeferDialog, type Deferral } from './DeferDialog'
import { ReactionLine, ScreeningSummary } from './DoseDetails'
import { FollowUpDialog, ReactionDialog, ReactionInErrorDialog } from './ReactionDialog'
import { GiveDialog } from './GiveDialog'
import { ForecastTable } from './ForecastTable'
import { antigenNames } from './parts'
import styles from './immunisations.module.css'

type Open =
  | { kind: 'give'; vaccine?: string }
  | { kind: 'elsewhere' | 'exclusion' | 'card' }
  | { kind: 'reaction' | 'error'; r: ImmunisationRecord }
  | { kind: 'reactionError' | 'followUp'; x: Reaction }
  | { kind: 'defer'; deferral: Deferral }
  | null

const REASONS = ['too_early', 'too_close', 'not_needed', 'expired', 'wrong_vaccine', 'product_age', 'live_interval', 'low_weight']

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
          {r.kind === 'given' && <ScreeningSummary s={r.screening} />}
          {reactions.length > 0 && (
            <ul className={styles.reactions}>
              {reactions.map((x) => (
                <ReactionLine key={x.id} x={x} canWrite={canWrite && !inError} onError={(x) => onOpen({ kind: 'reactionError', x })} onFollowUp={(x) => onOpen({ kind: 'followUp', x })} />
              ))}
            </ul>
          )}
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
  const name = r.antigen_name || r.antigen || t('immunisations.everyVaccine')
  const head = (
    <>
      <Tag color={r.kind === 'refused' ? 'purple' : r.kind === 'deferred' ? 'orange' : 'magenta'}>{t(`immunisations.kind.${r.kind}`)}</Tag> <strong>{r.vaccine_name || name}</strong> ·{' '}
      {t('immunisations.fromDate', { date: formatDay(r.occurred_on) })}
      {r.until_on ? ` · ${t(r.kind === 'deferred' ? 'immunisations.backOnDate' : 'immunisations.untilDate', { date: formatDay(r.until_on) })}` : ''}
    </>
  )
  return (
    <li className={[styles.item, inError ? styles.inErrorItem : ''].filter(Boolean).join(' ')} data-testid="exclusion">
      <div className={styles.row}>
        <div className={styles.grow}>
          <div>{inError ? <s>{head}</s> : head}</div>
          {inError && <div className={styles.errorReason}>{t('immunisations.inErrorBecause', { reason: r.error_reason })}</div>}
          <div className={styles.small}>{r.reason}</div>
          {r.kind === 'deferred' && <ScreeningSummary s={r.screening} optional />}
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
  const exclusions = records.filter((r) => r.kind === 'refused' || r.kind === 'contraindicated' || r.kind === 'deferred').sort((a, b) => a.occurred_on.localeCompare(b.occurred_on) || a.id - b.id)
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
            <Button size="small" onClick={() => setOpen({ kind: 'card' })}>
              {t('immunisations.cardPrint')}
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
      {open?.kind === 'give' && <GiveDialog patientId={patientId} vaccine={open.vaccine} birthDate={data.data?.birth_date} onClose={close} onDefer={(deferral) => setOpen({ kind: 'defer', deferral })} />}
      {open?.kind === 'defer' && <DeferDialog patientId={patientId} deferral={open.deferral} forecast={forecast} onClose={close} />}
      {open?.kind === 'elsewhere' && <ElsewhereDialog patientId={patientId} onClose={close} />}
      {open?.kind === 'exclusion' && <ExclusionDialog patientId={patientId} onClose={close} />}
      {open?.kind === 'card' && <CardDialog patientId={patientId} onClose={close} />}
      {open?.kind === 'reaction' && <ReactionDialog patientId={patientId} r={open.r} onClose={close} />}
      {open?.kind === 'error' && <InErrorDialog patientId={patientId} r={open.r} onClose={close} />}
      {open?.kind === 'reactionError' && <ReactionInErrorDialog patientId={patientId} x={open.x} onClose={close} />}
      {open?.kind === 'followUp' && <FollowUpDialog patientId={patientId} x={open.x} onClose={close} />}
    </Card>
  )
}
