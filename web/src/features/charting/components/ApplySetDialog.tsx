import { useQueryClient } from '@tanstack/react-query'
import { App, Alert, Button, Checkbox, Empty, Flex, Input, InputNumber, Modal, Select, Space, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import { useMemo, useRef, useState } from 'react'
import type { RefSelectProps } from 'antd/es/select'
import { useTranslation } from 'react-i18next'
import { LineFindings } from '../../../components/MedicineSafety'
import { ApiError } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { writeNumber } from '../../../lib/number'
import { formatDay } from '../../../lib/time'
import { usePrescriptionCheck } from '../../../lib/queries/prescriptionCheck'
import { useApplySet } from '../api/applyOrderSet'
import { useOrderSets, type Finding, type Item, type OrderSet, type SetContent } from '../api/orderSets'
import { testsTodayQuery, useTestsToday, type TestToday } from '../api/testsToday'
import { byWeight, weightDose } from './weightDose'

type VisitContent = Schema<'VisitContent'>
type Diagnosis = SetContent['diagnoses'][number]
type Order = SetContent['orders'][number]
type Check = SetContent['checks'][number]
type Today = Record<string, TestToday['state']>

/** One item of the set as the doctor keeps it: checked or not, possibly edited. */
interface Kept<T> {
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
  const { message } = App.useApp()
  const sets = useOrderSets()
  const apply = useApplySet(appointmentId)
  const testsToday = useTestsToday(appointmentId)
  const queries = useQueryClient()
  const picker = useRef<RefSelectProps>(null)
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
      void message.success(skipped > 0 ? t('orderSets.appliedSkipped', { count: skipped }) : t('orderSets.applied'))
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

  const options = (sets.data ?? []).map((s) => ({ value: s.id, label: s.example ? `${s.name} · ${t('orderSets.example')}` : s.name, scope: s.scope }))
  const keptIndexOf = (i: number) => (draft ? draft.items.slice(0, i).filter((k) => k.keep).length : 0)
  return (
    <Modal
      open
      title={t('orderSets.applyTitle')}
      width={820}
      okText={t('orderSets.applyButton', { count })}
      okButtonProps={{ disabled: !draft || count === 0, loading: apply.isPending }}
      cancelText={t('appointments.cancelButton')}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      // Keyboard first: the set's name is typed as soon as the dialog opens.
      afterOpenChange={(open) => open && picker.current?.focus()}
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Select
          ref={picker}
          autoFocus
          showSearch={{ optionFilterProp: 'label' }}
          aria-label={t('orderSets.set')}
          placeholder={t('orderSets.choose')}
          loading={sets.isLoading || testsToday.isLoading}
          value={setId}
          onChange={(id: number) => void choose(id)}
          style={{ width: '100%' }}
          options={[
            { label: t('orderSets.mine'), title: 'mine', options: options.filter((o) => o.scope === 'personal') },
            { label: t('orderSets.clinic'), title: 'clinic', options: options.filter((o) => o.scope === 'clinic') },
          ].filter((g) => g.options.length > 0)}
          notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('orderSets.none')} />}
        />
        {problem && <Alert type="error" showIcon role="alert" title={problem} />}
        {draft && (
          <>
            {draft.checks.length > 0 && (
              <Section title={t('orderSets.checks')}>
                <Typography.Text type="secondary">{t('orderSets.checksHelp')}</Typography.Text>
                {draft.checks.map((c, i) => (
                  <Checkbox key={i} checked={c.done} onChange={(e) => change((d) => void (d.checks[i].done = e.target.checked))}>
                    {c.text}
                  </Checkbox>
                ))}
              </Section>
            )}
            {draft.diagnoses.length > 0 && (
              <Section title={t('visit.sections.diagnoses')}>
                {draft.diagnoses.map((k, i) => (
                  <Flex key={i} gap={8} align="center" wrap>
                    <Checkbox checked={k.keep} onChange={(e) => change((d) => void (d.diagnoses[i].keep = e.target.checked))}>
                      {k.item.code ? `${k.item.code} — ${k.item.label || k.item.text}` : k.item.text}
                      {k.item.primary && ` (${t('visit.fields.primary')})`}
                    </Checkbox>
                    {k.already && <Tag>{t('orderSets.already')}</Tag>}
                  </Flex>
                ))}
              </Section>
            )}
            {draft.orders.length > 0 && (
              <Section title={t('visit.sections.orders')}>
                {draft.orders.map((k, i) => (
                  <Flex key={i} gap={8} align="center" wrap>
                    <Checkbox checked={k.keep} onChange={(e) => change((d) => void (d.orders[i].keep = e.target.checked))}>
                      {k.item.label || k.item.code}
                    </Checkbox>
                    {k.already && <Tag>{t('orderSets.already')}</Tag>}
                    {k.today && <Tag color="warning">{t(k.today === 'resulted' ? 'orderSets.resultedToday' : 'orderSets.orderedToday')}</Tag>}
                    <Input
                      size="small"
                      style={{ maxWidth: 260 }}
                      aria-label={t('orderSets.noteFor', { test: k.item.label || k.item.code })}
                      placeholder={t('visit.orderNote')}
                      value={k.item.note}
                      disabled={!k.keep}
                      maxLength={300}
                      onChange={(e) => change((d) => void (d.orders[i].item.note = e.target.value))}
                    />
                  </Flex>
                ))}
              </Section>
            )}
            {draft.items.length > 0 && (
              <Section title={t('orderSets.prescription')}>
                {draft.items.map((k, i) => {
                  const mine = k.keep ? findings.filter((f) => f.line === keptIndexOf(i)) : []
                  const edit = (field: 'dose' | 'frequency' | 'duration' | 'instructions') => (
                    <Input
                      size="small"
                      aria-label={`${t(`rx.fields.${field}`)} — ${k.item.medicine}`}
                      placeholder={t(`rx.fields.${field}`)}
                      value={k.item[field]}
                      disabled={!k.keep}
                      onChange={(e) => change((d) => void (d.items[i].item[field] = e.target.value))}
                    />
                  )
                  return (
                    <div key={i} data-testid="set-line" style={{ borderTop: i > 0 ? '1px solid var(--ant-color-border-secondary, #f0f0f0)' : undefined, paddingTop: i > 0 ? 8 : 0 }}>
                      <Checkbox checked={k.keep} onChange={(e) => change((d) => void (d.items[i].keep = e.target.checked))}>
                        <strong>{k.item.medicine}</strong>
                      </Checkbox>
                      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 6, margin: '6px 0' }}>
                        {edit('dose')}
                        {edit('frequency')}
                        {edit('duration')}
                        <InputNumber
                          size="small"
                          controls={false}
                          stringMode
                          min="0"
                          aria-label={`${t('rx.fields.quantity')} — ${k.item.medicine}`}
                          placeholder={t('rx.fields.quantity')}
                          value={k.item.quantity ?? undefined}
                          disabled={!k.keep}
                          onChange={(v) => change((d) => void (d.items[i].item.quantity = v === null || v === '' ? null : String(v)))}
                          style={{ width: '100%' }}
                          suffix={k.keep ? k.item.unit : undefined /* a disabled field's grey suffix fails contrast */}
                        />
                      </div>
                      {k.keep && byWeight(k.item.dose) && <ByWeight item={k.item} kg={draft.weight} onUse={(dose) => change((d) => void (d.items[i].item.dose = dose))} />}
                      {k.keep && <LineFindings findings={mine} />}
                      {k.keep && (mine.some((f) => f.requires_reason) || lineErrors[i]) && (
                        <div style={{ marginBottom: 8 }}>
                          <Input.TextArea
                            aria-label={t('orderSets.reasonFor', { medicine: k.item.medicine })}
                            placeholder={t('rx.safety.reasonPlaceholder')}
                            autoSize={{ minRows: 1, maxRows: 3 }}
                            maxLength={500}
                            status={lineErrors[i] ? 'error' : undefined}
                            value={k.item.override_reason}
                            onChange={(e) => change((d) => void (d.items[i].item.override_reason = e.target.value))}
                          />
                          {lineErrors[i] && <Typography.Text type="danger">{lineErrors[i]}</Typography.Text>}
                        </div>
                      )}
                    </div>
                  )
                })}
              </Section>
            )}
            {draft.plan.text && (
              <Section title={t('visit.sections.plan')}>
                <Flex gap={8} align="center">
                  <Checkbox checked={draft.plan.keep} onChange={(e) => change((d) => void (d.plan.keep = e.target.checked))}>
                    {t('orderSets.addPlan')}
                  </Checkbox>
                  {draft.plan.already && <Tag>{t('orderSets.already')}</Tag>}
                </Flex>
                <Input.TextArea
                  aria-label={t('visit.fields.plan')}
                  autoSize={{ minRows: 2, maxRows: 6 }}
                  maxLength={4000}
                  value={draft.plan.text}
                  disabled={!draft.plan.keep}
                  onChange={(e) => change((d) => void (d.plan.text = e.target.value))}
                />
              </Section>
            )}
            {draft.followUp.days > 0 && (
              <Section title={t('visit.fields.follow_up_date')}>
                <Flex gap={8} align="center" wrap>
                  <Checkbox checked={draft.followUp.keep} onChange={(e) => change((d) => void (d.followUp.keep = e.target.checked))}>
                    {t('orderSets.followUpIn')}
                  </Checkbox>
                  <InputNumber
                    size="small"
                    controls={false}
                    min={1}
                    max={730}
                    precision={0}
                    aria-label={t('orderSets.days')}
                    value={draft.followUp.days}
                    disabled={!draft.followUp.keep}
                    onChange={(v) => change((d) => void (d.followUp.days = v ?? d.followUp.days))}
                    suffix={draft.followUp.keep ? t('orderSets.daysUnit') : undefined /* a disabled field's grey suffix fails contrast */}
                    style={{ width: 110 }}
                  />
                  <Typography.Text type="secondary">{formatDay(dayjs(day).add(draft.followUp.days, 'day').format('YYYY-MM-DD'))}</Typography.Text>
                  {draft.followUp.already && <Tag>{t('orderSets.followUpAlready')}</Tag>}
                </Flex>
              </Section>
            )}
          </>
        )}
      </Space>
    </Modal>
  )
}

/** A dose written per kilogram worked out at the weight measured at this visit, or a reminder to weigh the patient. */
function ByWeight({ item, kg, onUse }: { item: Item; kg: number | null; onUse: (dose: string) => void }) {
  const { t, i18n } = useTranslation()
  const w = kg ? weightDose(item.dose, item.medicine, kg) : null
  if (!kg || !w) return <Typography.Text strong>{t('orderSets.noWeight')}</Typography.Text>
  const n = (x: number) => writeNumber(x, i18n.language)
  const values = { perKg: n(w.perKg), kg: n(kg), mg: n(w.mg), ml: w.ml === undefined ? '' : n(w.ml) }
  return (
    <Flex gap={8} align="center" wrap style={{ marginBottom: 6 }}>
      <Typography.Text type="secondary">{t(w.ml === undefined ? 'orderSets.weightDose' : 'orderSets.weightDoseMl', values)}</Typography.Text>
      {w.capped && (
        <Typography.Text strong data-testid="dose-capped">
          {t('orderSets.doseCapped', values)}
        </Typography.Text>
      )}
      <Button size="small" type="link" onClick={() => onUse(t(w.ml === undefined ? 'orderSets.doseMg' : 'orderSets.doseMgMl', values))}>
        {t('orderSets.useDose')}
      </Button>
    </Flex>
  )
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
      </Typography.Title>
      <Space orientation="vertical" size={6} style={{ width: '100%' }}>
        {children}
      </Space>
    </section>
  )
}
