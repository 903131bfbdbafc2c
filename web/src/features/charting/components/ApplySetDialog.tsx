import { useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useMemo, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { formatDay } from '../../../lib/time'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Checkbox } from '../../../light/Checkbox'
import { Dialog } from '../../../light/Dialog'
import { Empty } from '../../../light/Empty'
import { Input, TextArea } from '../../../light/Input'
import { SearchSelect } from '../../../light/SearchSelect'
import { Spin } from '../../../light/Spin'
import { Tag } from '../../../light/Tag'
import { toast } from '../../../light/Toast'
import { usePrescriptionCheck } from '../../../lib/queries/prescriptionCheck'
import { useApplySet } from '../api/applyOrderSet'
import { useOrderSets, type Finding, type Item, type OrderSet, type SetContent } from '../api/orderSets'
import { testsTodayQuery, useTestsToday, type TestToday } from '../api/testsToday'
import styles from './OrderSetDialogs.module.css'
import { SetLine } from './SetLine'

type VisitContent = Schema<'VisitContent'>
type Diagnosis = SetContent['diagnoses'][number]
type Order = SetContent['orders'][number]
type Check = SetContent['checks'][number]
type Today = Record<string, TestToday['state']>

/** One item of the set as the doctor keeps it: checked or not, possibly edited. */
export interface Kept<T> {
  item: T
  keep: boolean
  /** The visit has it already: it starts unchecked and is not added twice. */
  already: boolean
  /** A test the patient had ordered or resulted at another visit today: it starts unchecked. */
  today?: TestToday['state']
}

interface Draft {
  diagnoses: Kept<Diagnosis>[]
  orders: Kept<Order>[]
  items: Kept<Item>[]
  /** The set's checks: unticked, and recorded only when the doctor ticks them. */
  checks: Check[]
  /** The patient's weight at this visit (kg), for doses by weight. */
  weight: number | null
  plan: { text: string; keep: boolean; already: boolean }
  followUp: { days: number; keep: boolean; already: boolean }
}

/** A set's content as a draft to check and edit, against what the visit has already and the tests the patient had today. */
export function draftOf(set: OrderSet, visit: VisitContent, today: Today = {}): Draft {
  const c = set.content
  const hasCode = (d: Diagnosis) => visit.diagnoses.some((v) => (d.code ? v.code === d.code : !v.code && v.text.trim().toLowerCase() === d.text.trim().toLowerCase()))
  const hasTest = (o: Order) => visit.orders.some((v) => v.code === o.code)
  const planAlready = !!c.plan && visit.plan.includes(c.plan)
  return {
    diagnoses: c.diagnoses.map((d) => ({ item: d, keep: !hasCode(d), already: hasCode(d) })),
    orders: c.orders.map((o) => ({ item: o, keep: !hasTest(o) && !today[o.code], already: hasTest(o), today: hasTest(o) ? undefined : today[o.code] })),
    items: c.items.map((it) => ({ item: { ...it, override_reason: '', overrides: [] }, keep: true, already: false })),
    checks: (c.checks ?? []).map((ch) => ({ text: ch.text, done: false })),
    weight: visit.vitals.weight ?? null,
    plan: { text: c.plan, keep: !!c.plan && !planAlready, already: planAlready },
    followUp: { days: c.follow_up_days, keep: c.follow_up_days > 0 && !visit.follow_up_date, already: !!visit.follow_up_date },
  }
}

/** What applying the draft sends: the kept items, lines with their override reasons and the findings those acknowledge. */
export function contentOf(d: Draft, findings: Finding[]): SetContent {
  const items = d.items.filter((k) => k.keep).map((k) => k.item)
  return {
    diagnoses: d.diagnoses.filter((k) => k.keep).map((k) => k.item),
    orders: d.orders.filter((k) => k.keep).map((k) => k.item),
    items: items.map((it, i) => ({
      ...it,
      overrides: it.override_reason.trim() ? findings.filter((f) => f.line === i && f.requires_reason).map((f) => f.key) : [],
    })),
    checks: d.checks,
    plan: d.plan.keep ? d.plan.text : '',
    follow_up_days: d.followUp.keep ? d.followUp.days : 0,
  }
}

/** The tests done today elsewhere that the doctor ticked again: the server orders only these twice. */
export const repeatOf = (d: Draft): string[] => d.orders.filter((k) => k.keep && k.today).map((k) => k.item.code)

interface Props {
  appointmentId: number
  /** The visit's day (the follow-up date is counted from it). */
  day: string
  content: () => VisitContent
  prepare: () => Promise<number>
  onApplied: (visit: Schema<'Visit'>) => void
  onClose: () => void
}

/**
 * Applies an order set to the visit: the set's every item shown checked (what the visit has
 * already, unchecked and marked), editable and uncheckable; the medicines checked for the
 * patient's allergies and current medicines as they would be on a prescription, a finding
 * needing its reason. The server writes it all in one transaction, or nothing.
 */
export function ApplySetDialog({ appointmentId, day, content, prepare, onApplied, onClose }: Props) {
  const { t } = useTranslation()
  const sets = useOrderSets()
  const apply = useApplySet(appointmentId)
  const testsToday = useTestsToday(appointmentId)
  const queries = useQueryClient()
  const [setId, setSetId] = useState<number>()
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problem, setProblem] = useState('')
  const [lineErrors, setLineErrors] = useState<Record<number, string>>({})
  const kept = useMemo(() => (draft ? draft.items.filter((k) => k.keep).map((k) => ({ medicine_id: k.item.medicine_id, medicine: k.item.medicine })) : []), [draft])
  const check = usePrescriptionCheck({ appointmentId }, kept, kept.length > 0)
  const findings = check.data?.findings ?? []

  const choose = async (id: number) => {
    const set = sets.data?.find((s) => s.id === id)
    setSetId(id)
    setProblem('')
    setLineErrors({})
    // A set chosen before the day's tests have arrived waits for them: otherwise the tests done
    // this morning would be ticked again with no "ordered today" mark.
    const list = await queries.ensureQueryData(testsTodayQuery(appointmentId)).catch(() => [])
    const today: Today = Object.fromEntries(list.map((x) => [x.code, x.state]))
    setDraft(set ? draftOf(set, content(), today) : null)
  }
  const change = (fn: (d: Draft) => void) =>
    setDraft((d) => {
      if (!d) return d
      const next = structuredClone(d)
      fn(next)
      return next
    })

  const count = draft
    ? [...draft.diagnoses, ...draft.orders, ...draft.items].filter((k) => k.keep).length + draft.checks.filter((c) => c.done).length + (draft.plan.keep ? 1 : 0) + (draft.followUp.keep ? 1 : 0)
    : 0
  const submit = async () => {
    if (!draft) return
    setProblem('')
    setLineErrors({})
    try {
      const version = await prepare()
      const res = await apply.mutateAsync({ set_id: setId ?? null, version, content: contentOf(draft, findings), repeat: repeatOf(draft) })
      onApplied(res.visit)
      const skipped = res.skipped.diagnoses.length + res.skipped.orders.length + res.skipped.today.length + (res.skipped.plan ? 1 : 0) + (res.skipped.follow_up ? 1 : 0)
      toast.success(skipped > 0 ? t('orderSets.appliedSkipped', { count: skipped }) : t('orderSets.applied'))
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const lines: Record<number, string> = {}
      const keptIndex = draft.items.flatMap((k, i) => (k.keep ? [i] : []))
      for (const [field, msgs] of Object.entries(e.fields)) {
        const m = /^(?:content\.)?items\.(\d+)\./.exec(field) // the set's own check, or the prescription's
        if (m) lines[keptIndex[Number(m[1])]] = msgs.join(' ')
      }
      setLineErrors(lines)
      setProblem(e.display)
    }
  }

  const label = (s: OrderSet) => (s.example ? `${s.name} · ${t('orderSets.example')}` : s.name)
  const all = sets.data ?? []
  // My sets first, then the clinic's, each under its heading, as the library's option groups.
  const options = [
    ...all.filter((s) => s.scope === 'personal').map((s) => ({ value: String(s.id), label: label(s), group: t('orderSets.mine') })),
    ...all.filter((s) => s.scope === 'clinic').map((s) => ({ value: String(s.id), label: label(s), group: t('orderSets.clinic') })),
  ]
  const keptIndexOf = (i: number) => (draft ? draft.items.slice(0, i).filter((k) => k.keep).length : 0)
  return (
    <Dialog
      open
      title={t('orderSets.applyTitle')}
      width={820}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={apply.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={apply.isPending}>
            {t('appointments.cancelButton')}
          </Button>
          <Button variant="primary" disabled={!draft || count === 0} loading={apply.isPending} onClick={() => void submit()}>
            {t('orderSets.applyButton', { count })}
          </Button>
        </>
      }
    >
      <div className={styles.stack}>
        {/* Keyboard first: the set's name is typed as soon as the dialog opens (its first field takes focus). */}
        <div className={`${styles.row} ${styles.picker}`}>
          <SearchSelect className={styles.picker} label={t('orderSets.set')} placeholder={t('orderSets.choose')} emptyText={t('orderSets.none')} value={setId === undefined ? undefined : String(setId)} options={options} onChange={(id) => void choose(Number(id))} />
          {(sets.isLoading || testsToday.isLoading) && <Spin />}
        </div>
        {sets.data && all.length === 0 && (
          <Empty small>{t('orderSets.none')}</Empty>
        )}
        {problem && <Alert type="error" role="alert" title={problem} />}
        {draft && (
          <>
            {draft.checks.length > 0 && (
              <Section title={t('orderSets.checks')}>
                <span className={styles.muted}>{t('orderSets.checksHelp')}</span>
                {draft.checks.map((c, i) => (
                  <Checkbox key={i} checked={c.done} onChange={(on) => change((d) => void (d.checks[i].done = on))}>
                    {c.text}
                  </Checkbox>
                ))}
              </Section>
            )}
            {draft.diagnoses.length > 0 && (
              <Section title={t('visit.sections.diagnoses')}>
                {draft.diagnoses.map((k, i) => (
                  <div key={i} className={styles.row}>
                    <Checkbox checked={k.keep} onChange={(on) => change((d) => void (d.diagnoses[i].keep = on))}>
                      {k.item.code ? `${k.item.code} — ${k.item.label || k.item.text}` : k.item.text}
                      {k.item.primary && ` (${t('visit.fields.primary')})`}
                    </Checkbox>
                    {k.already && <Tag>{t('orderSets.already')}</Tag>}
                  </div>
                ))}
              </Section>
            )}
            {draft.orders.length > 0 && (
              <Section title={t('visit.sections.orders')}>
                {draft.orders.map((k, i) => (
                  <div key={i} className={styles.row}>
                    <Checkbox checked={k.keep} onChange={(on) => change((d) => void (d.orders[i].keep = on))}>
                      {k.item.label || k.item.code}
                    </Checkbox>
                    {k.already && <Tag>{t('orderSets.already')}</Tag>}
                    {k.today && <Tag color="warning">{t(k.today === 'resulted' ? 'orderSets.resultedToday' : 'orderSets.orderedToday')}</Tag>}
                    <Input
                      className={`${styles.small} ${styles.note}`}
                      aria-label={t('orderSets.noteFor', { test: k.item.label || k.item.code })}
                      placeholder={t('visit.orderNote')}
                      value={k.item.note}
                      disabled={!k.keep}
                      maxLength={300}
                      onChange={(e) => change((d) => void (d.orders[i].item.note = e.target.value))}
                    />
                  </div>
                ))}
              </Section>
            )}
            {draft.items.length > 0 && (
              <Section title={t('orderSets.prescription')}>
                {draft.items.map((k, i) => (
                  <SetLine
                    key={i}
                    kept={k}
                    weight={draft.weight}
                    findings={k.keep ? findings.filter((f) => f.line === keptIndexOf(i)) : []}
                    error={lineErrors[i]}
                    onChange={(fn) => change((d) => fn(d.items[i]))}
                  />
                ))}
              </Section>
            )}
            {draft.plan.text && (
              <Section title={t('visit.sections.plan')}>
                <div className={styles.row}>
                  <Checkbox checked={draft.plan.keep} onChange={(on) => change((d) => void (d.plan.keep = on))}>
                    {t('orderSets.addPlan')}
                  </Checkbox>
                  {draft.plan.already && <Tag>{t('orderSets.already')}</Tag>}
                </div>
                <TextArea
                  aria-label={t('visit.fields.plan')}
                  // As tall as the plan's words, 2 to 6 lines (the library's grew with them), at any width.
                  className={styles.plan}
                  rows={2}
                  maxLength={4000}
                  value={draft.plan.text}
                  disabled={!draft.plan.keep}
                  onChange={(e) => change((d) => void (d.plan.text = e.target.value))}
                />
              </Section>
            )}
            {draft.followUp.days > 0 && (
              <Section title={t('visit.fields.follow_up_date')}>
                <div className={styles.row}>
                  <Checkbox checked={draft.followUp.keep} onChange={(on) => change((d) => void (d.followUp.keep = on))}>
                    {t('orderSets.followUpIn')}
                  </Checkbox>
                  <span className={styles.unit}>
                    <Input
                      type="number"
                      inputMode="numeric"
                      className={`${styles.small} ${styles.days}`}
                      min={1}
                      max={730}
                      step={1}
                      aria-label={t('orderSets.days')}
                      value={draft.followUp.days}
                      disabled={!draft.followUp.keep}
                      // Kept whole and inside 1–730 as the library's number field kept it; an emptied field keeps the days it had.
                      onChange={(e) => {
                        const n = Number(e.target.value)
                        if (e.target.value.trim() !== '' && Number.isFinite(n)) change((d) => void (d.followUp.days = Math.min(730, Math.max(1, Math.round(n)))))
                      }}
                      onWheel={(e) => e.currentTarget.blur()}
                      // Left emptied or out of range, the field shows again the days that apply.
                      onBlur={(e) => void (e.currentTarget.value = String(draft.followUp.days))}
                    />
                    {draft.followUp.keep && <span>{t('orderSets.daysUnit')}</span> /* a disabled field's grey unit fails contrast */}
                  </span>
                  <span className={styles.muted}>{formatDay(dayjs(day).add(draft.followUp.days, 'day').format('YYYY-MM-DD'))}</span>
                  {draft.followUp.already && <Tag>{t('orderSets.followUpAlready')}</Tag>}
                </div>
              </Section>
            )}
          </>
        )}
      </div>
    </Dialog>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section}>
      <h3 className={styles.title}>{title}</h3>
      {children}
    </section>
  )
}
