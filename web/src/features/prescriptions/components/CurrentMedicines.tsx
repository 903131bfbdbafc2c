import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LineFindings, useFindingText, type Finding } from '../../../components/MedicineSafety'
import { useCan } from '../../../lib/auth/can'
import { formatDay } from '../../../lib/time'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { CheckIcon, EditIcon, PlusIcon, StopIcon } from '../../../light/icons'
import { AuditIcon, CloseCircleIcon } from './icons'
import { Spin } from '../../../light/Spin'
import { Tag } from '../../../light/Tag'
import { useToast } from '../../../light/Toast'
import { useCurrentMedicines, useTakesNone, type CurrentMedicine } from '../api/currentMedicines'
import { useConfirmCurrentMedicine } from '../api/confirmCurrentMedicine'
import { useReviewCurrentMedicine } from '../api/reviewCurrentMedicine'
import { useRecordTakesNone } from '../api/recordTakesNone'
import { useReviewPairAgain } from '../api/reviewPairAgain'
import { CheckedDialog, InErrorDialog, KeepDialog, MedicineDialog, StopDialog } from './CurrentMedicineDialogs'
import { partialDay } from './currentMedicineDays'
import styles from './CurrentMedicines.module.css'

export { keepReasonLongEnough, lastDoseOf, partialDay, readPartialDay } from './currentMedicineDays'

// A patient's current medicines (issue 55, M4): those prescribed here (read-only, from the
// supply of issued prescriptions) and those the nurse or doctor records as taken from
// elsewhere or over the counter, which the safety check counts the same way.

const SOURCE_COLOUR = { here: 'green', elsewhere: 'blue', otc: 'purple' } as const

/** Who keeps the list: the nurse and the doctor (the server's word). */
const useCanKeep = () => {
  const nurse = useCan('record vitals')
  const doctor = useCan('write prescription')
  return nurse || doctor
}

/** Who reviews what a nurse recorded: who may prescribe. */
const useCanReview = () => useCan('write prescription')

/** A last dose as recorded (2026-11-28 or 2026-11-28T08:30) in the user's format. */
export function lastDose(s: string) {
  const [day, time] = s.split('T')
  return time ? `${formatDay(day)} ${time}` : formatDay(day)
}

/** An entry entered in error: no medicine of the patient's, kept for its history only. */
export const inError = (m: CurrentMedicine) => !!m.error_reason

/** A medicine the patient takes: neither stopped nor entered in error. */
export const isActive = (m: CurrentMedicine) => !m.stopped_on && !inError(m)

/** One medicine: what, how, where from, since when, who prescribed it, and when it was last confirmed. */
function MedicineLine({ m }: { m: CurrentMedicine }) {
  const { t } = useTranslation()
  const how = [m.dose, m.frequency].filter(Boolean).join(', ')
  const facts = [
    m.started_on ? t('currentMeds.since', { date: partialDay(m.started_on) }) : t('currentMeds.sinceUnknown'),
    m.prescriber && t('currentMeds.prescribedBy', { name: m.prescriber }),
    m.source === 'here'
      ? m.supply_until && t('currentMeds.supplyUntil', { date: formatDay(m.supply_until) })
      : t('currentMeds.recorded', { date: formatDay(m.recorded_at), name: m.recorded_by }),
    m.source !== 'here' &&
      (m.confirmed_at ? t('currentMeds.confirmed', { date: formatDay(m.confirmed_at), name: m.confirmed_by ?? '' }) : t('currentMeds.notConfirmed')),
    m.source !== 'here' && !m.needs_review && m.reviewed_at && t('currentMeds.reviewedBy', { date: formatDay(m.reviewed_at), name: m.reviewed_by ?? '' }),
  ].filter(Boolean)
  // What a reconciliation recorded, each only when set.
  const reconciled = [
    m.route && t('currentMeds.routeIs', { route: t(`rx.routes.${m.route}`, { defaultValue: m.route }) }),
    m.indication && t('currentMeds.indicationIs', { indication: m.indication }),
    m.last_dose && t('currentMeds.lastDoseIs', { when: lastDose(m.last_dose) }),
    m.information_source && t('currentMeds.infoSourceIs', { source: t(`currentMeds.infoSource.${m.information_source}`) }),
  ].filter(Boolean)
  return (
    <div className={styles.medicine}>
      <div>
        <strong>{m.medicine}</strong>
        {how && <span>, {how}</span>}
      </div>
      <div className={styles.tags}>
        <Tag color={SOURCE_COLOUR[m.source]}>{t(`currentMeds.source.${m.source}`)}</Tag>
        {m.source !== 'here' && <ReadAsTag m={m} />}
        {m.needs_review && (
          <Tag color="gold" icon={<AuditIcon />} title={t('currentMeds.notReviewedHint')} data-testid="not-reviewed">
            {t('currentMeds.notReviewed')}
          </Tag>
        )}
        {m.adherence && m.adherence !== 'as_directed' && <Tag color={m.adherence === 'not_taking' ? 'red' : 'orange'}>{t(`currentMeds.adherence.${m.adherence}`)}</Tag>}
        {m.adherence === 'as_directed' && <Tag>{t('currentMeds.adherence.as_directed')}</Tag>}
        {staleSince(m) && (
          <Tag color="orange" title={t('currentMeds.staleHint')}>
            {t('currentMeds.stale', { date: formatDay(staleSince(m) ?? '') })}
          </Tag>
        )}
      </div>
      {reconciled.length > 0 && (
        <div className={styles.small} data-testid="reconciled">
          {reconciled.join(' · ')}
        </div>
      )}
      <div className={`${styles.small} ${styles.muted}`}>{facts.join(' · ')}</div>
    </div>
  )
}

/**
 * ATC groups of high-alert medicines (ISMP): anticoagulants (fondaparinux included), insulins and
 * other antidiabetics, opioids, methotrexate; and the narrow-therapeutic-index ones the
 * pharmacist's review of 2026-11-29 added (m9): carbamazepine, azathioprine, mercaptopurine,
 * ciclosporin.
 */
const HIGH_ALERT_ATC = ['B01AA', 'B01AB', 'B01AE', 'B01AF', 'B01AX05', 'A10A', 'A10B', 'N02A', 'L01BA01', 'L04AX03', 'N03AF01', 'L04AX01', 'L01BB02', 'L04AD01']

/** A high-alert medicine is confirmed one by one, never in a "confirm all" (m5). */
export const highAlert = (m: CurrentMedicine) => (m.read_as ?? []).some((n) => HIGH_ALERT_ATC.some((code) => n.atc?.startsWith(code)))

/** A recorded medicine nobody has confirmed at a visit for this many days is flagged (m7). */
const STALE_DAYS = 180

/** The day a recorded medicine was last heard of (confirmed, else recorded), when longer ago than STALE_DAYS. */
export function staleSince(m: CurrentMedicine, now = Date.now()) {
  if (m.source === 'here' || !isActive(m)) return null
  const last = m.confirmed_at ?? m.recorded_at
  return now - new Date(last).getTime() > STALE_DAYS * 86_400_000 ? last : null
}

/** What the safety check read a recorded medicine as (M1): its substances, or "not recognised" when it read nothing and so cannot see it. */
function ReadAsTag({ m }: { m: CurrentMedicine }) {
  const { t } = useTranslation()
  if (m.read_as?.length === 0)
    return (
      <Tag color="red" title={t('currentMeds.notRecognisedHint')}>
        {t('currentMeds.notRecognised')}
      </Tag>
    )
  if (m.read_as?.length) {
    const names = m.read_as.map((n) => [n.name, n.atc].filter(Boolean).join(' ')).join(', ')
    return <Tag title={m.medicine_id === null ? t('currentMeds.typedHint') : undefined}>{t('currentMeds.readAs', { names })}</Tag>
  }
  if (m.medicine_id !== null) return null
  return (
    <Tag color="orange" title={t('currentMeds.typedHint')}>
      {t('currentMeds.typed')}
    </Tag>
  )
}

/** A finding of the list's review still to resolve: neither kept by a prescriber nor by the reason it was prescribed with. */
export const toResolve = (f: Finding) => !f.kept

/**
 * The list reviewed against itself (C1): each medicine that duplicates or interacts with another listed, for a doctor to
 * resolve — stop one, change one, or keep both knowingly, for a reason (a prescriber only). A pair kept stays in view, struck
 * through, with who kept it, when and why; it is no longer counted.
 */
function ListReview({ patientId, active }: { patientId: number; active: CurrentMedicine[] }) {
  const { t } = useTranslation()
  const text = useFindingText()
  const canKeepPair = useCanReview()
  const [keeping, setKeeping] = useState<{ m: CurrentMedicine; f: Finding }>()
  const again = useReviewPairAgain(patientId)
  const open = active.map((m) => ({ m, findings: (m.findings ?? []).filter(toResolve) })).filter((x) => x.findings.length)
  const kept = active.flatMap((m) => (m.findings ?? []).filter((f) => f.kept).map((f) => ({ m, f })))
  const count = open.reduce((n, x) => n + x.findings.length, 0)
  if (!count && !kept.length) return null
  return (
    <div data-testid="list-review" className={styles.review}>
      {count > 0 && (
        <>
          <strong>{t('currentMeds.reviewTitle', { count })}</strong>
          <p className={`${styles.small} ${styles.muted} ${styles.reviewHint}`}>{t('currentMeds.reviewHint')}</p>
        </>
      )}
      {open.map(({ m, findings }, i) => (
        <div key={keyOf(m, i)}>
          <LineFindings findings={findings} title={m.medicine} />
          {canKeepPair && (
            <div className={styles.keepButtons}>
              {findings
                .filter((f) => f.pair)
                .map((f) => (
                  <Button
                    key={f.key}
                    size="small"
                    icon={<CheckIcon />}
                    aria-label={t('currentMeds.keepBothNamed', { medicine: m.medicine, other: f.other_medicine ?? '' })}
                    onClick={() => setKeeping({ m, f })}
                  >
                    {findings.length > 1 ? t('currentMeds.keepBothNamed', { medicine: m.medicine, other: f.other_medicine ?? '' }) : t('currentMeds.keepBoth')}
                  </Button>
                ))}
            </div>
          )}
        </div>
      ))}
      {kept.length > 0 && (
        <div data-testid="kept-pairs" className={count ? styles.keptAfter : undefined}>
          <strong className={`${styles.small} ${styles.muted}`}>{t('currentMeds.keptTitle')}</strong>
          <ul className={styles.kept}>
            {kept.map(({ m, f }) => (
              <li key={`${keyOf(m, 0)}-${f.key}`} data-testid="kept-pair">
                <del className={styles.muted}>
                  {m.medicine}: {text(f)}
                </del>
                <div>
                  <span className={styles.muted}>
                    {t(f.kept?.prescribed ? 'currentMeds.keptPrescribed' : 'currentMeds.keptBy', {
                      name: f.kept?.by ?? '',
                      date: formatDay(f.kept?.at ?? ''),
                      reason: f.kept?.reason ?? '',
                    })}
                  </span>{' '}
                  {canKeepPair && f.pair && (
                    <Button
                      size="small"
                      variant="link"
                      className={styles.inlineLink}
                      aria-label={t('currentMeds.reviewAgainNamed', { medicine: m.medicine, other: f.other_medicine ?? '' })}
                      onClick={() => f.pair && again.mutate(f.pair)}
                      loading={again.isPending}
                    >
                      {t('currentMeds.reviewAgain')}
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
      {keeping && <KeepDialog patientId={patientId} m={keeping.m} f={keeping.f} onClose={() => setKeeping(undefined)} />}
    </div>
  )
}

/** With nothing current: "asked, takes no medicines" as answered (when, by whom), or a way to record it (M4). */
function TakesNoneLine({ patientId, canKeep }: { patientId: number; canKeep: boolean }) {
  const { t } = useTranslation()
  const none = useTakesNone(patientId)
  const record = useRecordTakesNone(patientId)
  if (none.data) return <span data-testid="takes-none">{t('currentMeds.takesNoneAsked', { date: formatDay(none.data.asked_at), name: none.data.asked_by })}</span>
  if (!canKeep || none.isLoading) return null
  return (
    <Button size="small" onClick={() => record.mutate()} loading={record.isPending}>
      {t('currentMeds.takesNoneButton')}
    </Button>
  )
}

type Dialog = { kind: 'add' } | { kind: 'edit' | 'stop' | 'error'; m: CurrentMedicine } | { kind: 'checked'; saved: CurrentMedicine } | null

/** The dialogs of the list, and a way to open them; at a visit, a stop is said to be at it. */
function useDialogs(patientId: number, appointmentId?: number) {
  const [dialog, setDialog] = useState<Dialog>(null)
  const close = () => setDialog(null)
  // After a save, what the check says of it, when it says anything (or could not read it).
  const saved = (m: CurrentMedicine) => (m.findings?.length || m.read_as?.length === 0 ? setDialog({ kind: 'checked', saved: m }) : undefined)
  const node =
    dialog?.kind === 'add' ? (
      <MedicineDialog patientId={patientId} onClose={close} onSaved={saved} />
    ) : dialog?.kind === 'edit' ? (
      <MedicineDialog patientId={patientId} m={dialog.m} onClose={close} onSaved={saved} />
    ) : dialog?.kind === 'stop' ? (
      <StopDialog m={dialog.m} appointmentId={appointmentId} onClose={close} />
    ) : dialog?.kind === 'error' ? (
      <InErrorDialog m={dialog.m} onClose={close} />
    ) : dialog?.kind === 'checked' ? (
      <CheckedDialog saved={dialog.saved} onClose={close} />
    ) : null
  return { open: setDialog, node }
}

const keyOf = (m: CurrentMedicine, i: number) => (m.id ? `taken-${m.id}` : `rx-${m.prescription_id}-${i}`)

/** Why a medicine was stopped: its category, then its words. */
function useStopWhy() {
  const { t } = useTranslation()
  return (m: CurrentMedicine) => [m.stop_category && t(`currentMeds.stopCategory.${m.stop_category}`), m.stop_reason].filter(Boolean).join(': ')
}

/**
 * A list folded away under its count (the library's ghost collapse): a native disclosure, its
 * entries drawn only once opened, as the library's were.
 */
function Folded({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  return (
    <details className={styles.folded} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {open && <ul className={styles.foldedList}>{children}</ul>}
    </details>
  )
}

/** The entries entered in error, folded away and struck out: for the entry's history, with why, when and who. */
function InErrorList({ list }: { list: CurrentMedicine[] }) {
  const { t } = useTranslation()
  if (!list.length) return null
  return (
    <Folded label={t('currentMeds.inErrorList', { count: list.length })}>
      {list.map((m, i) => (
        <li key={keyOf(m, i)} data-testid="in-error-entry">
          <s>{[m.medicine, m.dose, m.frequency].filter(Boolean).join(', ')}</s> —{' '}
          {t('currentMeds.inErrorBy', { date: m.error_at ? formatDay(m.error_at) : '', reason: m.error_reason, name: m.error_by ?? '' })}
        </li>
      ))}
    </Folded>
  )
}

/** The stopped ones, folded away: when and why, and who heard it. */
function Stopped({ list }: { list: CurrentMedicine[] }) {
  const { t } = useTranslation()
  const stopWhy = useStopWhy()
  if (!list.length) return null
  return (
    <Folded label={t('currentMeds.stoppedList', { count: list.length })}>
      {list.map((m, i) => (
        <li key={keyOf(m, i)}>
          <s>{m.medicine}</s> — {t('currentMeds.stoppedOnBy', { date: formatDay(m.stopped_on), reason: stopWhy(m), name: m.stopped_by ?? '' })}
        </li>
      ))}
    </Folded>
  )
}

/** The list's medicines, one a row: "none yet" when there are none, a spinner while they load. */
function MedicineList({ loading, list, row }: { loading: boolean; list: CurrentMedicine[]; row(m: CurrentMedicine): ReactNode }) {
  const { t } = useTranslation()
  if (loading)
    return (
      <div className={styles.loading}>
        <Spin />
      </div>
    )
  if (!list.length) return <p className={`${styles.empty} ${styles.muted}`}>{t('currentMeds.none')}</p>
  return (
    <ul className={styles.list}>
      {list.map((m, i) => (
        <li key={keyOf(m, i)} className={styles.item}>
          {row(m)}
        </li>
      ))}
    </ul>
  )
}

/** The chart's card: every current medicine, with add, correct and stop for the nurse and the doctor. */
export function PatientMedicines({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const canKeep = useCanKeep()
  const canReview = useCanReview()
  const list = useCurrentMedicines(patientId)
  const dialogs = useDialogs(patientId)
  const review = useReviewCurrentMedicine()
  const active = (list.data ?? []).filter(isActive)
  return (
    <Card
      look="panel"
      level={3}
      data-testid="current-medicines"
      title={t('currentMeds.title')}
      extra={
        canKeep && (
          <Button size="small" icon={<PlusIcon />} onClick={() => dialogs.open({ kind: 'add' })}>
            {t('currentMeds.add')}
          </Button>
        )
      }
    >
      <ListReview patientId={patientId} active={active} />
      <MedicineList
        loading={list.isLoading}
        list={active}
        row={(m) => (
          <div className={styles.chartRow}>
            <MedicineLine m={m} />
            {canKeep && (
              <div className={styles.buttons}>
                {canReview && m.needs_review && <ReviewButton m={m} onReview={() => review.mutate({ m })} pending={review.isPending} />}
                {m.source !== 'here' && (
                  <Button size="small" icon={<EditIcon />} aria-label={t('currentMeds.editNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'edit', m })}>
                    {t('currentMeds.edit')}
                  </Button>
                )}
                <Button size="small" variant="dangerOutline" icon={<StopIcon />} aria-label={t('currentMeds.stopNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                  {t('currentMeds.stop')}
                </Button>
                {m.source !== 'here' && (
                  <Button size="small" icon={<CloseCircleIcon />} aria-label={t('currentMeds.inErrorNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'error', m })}>
                    {t('currentMeds.inError')}
                  </Button>
                )}
              </div>
            )}
          </div>
        )}
      />
      {!list.isLoading && active.length === 0 && <TakesNoneLine patientId={patientId} canKeep={canKeep} />}
      <Stopped list={(list.data ?? []).filter((m) => m.stopped_on && !inError(m))} />
      <InErrorList list={(list.data ?? []).filter(inError)} />
      {dialogs.node}
    </Card>
  )
}

/** A prescriber marks reviewed what a nurse recorded or corrected. */
function ReviewButton({ m, onReview, pending }: { m: CurrentMedicine; onReview(): void; pending: boolean }) {
  const { t } = useTranslation()
  return (
    <Button size="small" className={styles.primaryOutline} icon={<AuditIcon />} aria-label={t('currentMeds.markReviewedNamed', { medicine: m.medicine })} onClick={onReview} loading={pending}>
      {t('currentMeds.markReviewed')}
    </Button>
  )
}

/** A visit's reconciliation: for each medicine recorded as taken, "still taking?" — confirm it (one or all) or stop it; a line prescribed here can be said stopped. */
export function VisitMedicines({ patientId, appointmentId, closed }: { patientId: number; appointmentId: number; closed: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const canKeep = useCanKeep() && !closed
  const canReview = useCanReview()
  const list = useCurrentMedicines(patientId)
  const confirm = useConfirmCurrentMedicine()
  const review = useReviewCurrentMedicine()
  const dialogs = useDialogs(patientId, appointmentId)
  const current = (list.data ?? []).filter(isActive)
  // For the doctor, what a nurse recorded and no doctor has reviewed comes first.
  const active = canReview ? [...current.filter((m) => m.needs_review), ...current.filter((m) => !m.needs_review)] : current
  const asked = (m: CurrentMedicine) => m.confirmed_appointment_id === appointmentId
  // A high-alert medicine (anticoagulant, insulin, opioid…) is asked about on its own (m5).
  const open = active.filter((m) => m.source !== 'here' && !asked(m) && !highAlert(m))
  const confirmAll = async () => {
    // One by one: each answers its own version; a stale one says so and the rest go on.
    for (const m of open) await confirm.mutateAsync({ m, appointmentId }).catch(() => undefined)
    toast.success(t('currentMeds.allConfirmed'))
  }
  return (
    // The question is the title, whole; the button to record one more sits below the list.
    <Card look="panel" level={3} data-testid="still-taking" title={t('currentMeds.stillTaking')}>
      {canKeep && open.length > 1 && (
        <Button className={`${styles.block} ${styles.confirmAll}`} icon={<CheckIcon />} onClick={() => void confirmAll()} loading={confirm.isPending}>
          {t('currentMeds.confirmAll', { count: open.length })}
        </Button>
      )}
      <ListReview patientId={patientId} active={active} />
      <MedicineList
        loading={list.isLoading}
        list={active}
        row={(m) => (
          <div className={styles.visitRow}>
            <MedicineLine m={m} />
            {m.source === 'here' && canKeep && (
              <div className={styles.buttons}>
                <Button size="small" variant="dangerOutline" icon={<StopIcon />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                  {t('currentMeds.stillTakingNo')}
                </Button>
              </div>
            )}
            {canReview && canKeep && m.needs_review && (
              <span>
                <ReviewButton m={m} onReview={() => review.mutate({ m })} pending={review.isPending} />
              </span>
            )}
            {m.source !== 'here' &&
              (asked(m) ? (
                <span>
                  <Tag color="green" icon={<CheckIcon />}>
                    {t('currentMeds.confirmedHere')}
                  </Tag>
                </span>
              ) : (
                canKeep && (
                  <div className={styles.buttons}>
                    <Button size="small" className={styles.primaryOutline} icon={<CheckIcon />} aria-label={t('currentMeds.stillTakingNamed', { medicine: m.medicine })} onClick={() => confirm.mutate({ m, appointmentId })}>
                      {t('currentMeds.stillTakingYes')}
                    </Button>
                    <Button size="small" variant="dangerOutline" icon={<StopIcon />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                      {t('currentMeds.stillTakingNo')}
                    </Button>
                  </div>
                )
              ))}
          </div>
        )}
      />
      {!list.isLoading && active.length === 0 && <TakesNoneLine patientId={patientId} canKeep={canKeep} />}
      {canKeep && (
        <Button size="small" className={`${styles.block} ${styles.dashed}`} icon={<PlusIcon />} onClick={() => dialogs.open({ kind: 'add' })}>
          {t('currentMeds.add')}
        </Button>
      )}
      {dialogs.node}
    </Card>
  )
}
