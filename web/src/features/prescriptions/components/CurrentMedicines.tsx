import { AuditOutlined, CheckOutlined, CloseCircleOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Collapse, Flex, Form, Input, List, Modal, Radio, Select, Space, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DateInput } from '../../../components/DateInput'
import { LineFindings, useFindingText, type Finding } from '../../../components/MedicineSafety'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { showFormErrors } from '../../../lib/formErrors'
import { formatDay, formatMonth } from '../../../lib/time'
import { ADHERENCES, INFO_SOURCES, useCurrentMedicines, useTakesNone, type CurrentMedicine } from '../api/currentMedicines'
import { useConfirmCurrentMedicine } from '../api/confirmCurrentMedicine'
import { useMarkInError } from '../api/markInError'
import { useReviewCurrentMedicine } from '../api/reviewCurrentMedicine'
import { useSaveCurrentMedicine } from '../api/saveCurrentMedicine'
import { useStopCurrentMedicine } from '../api/stopCurrentMedicine'
import { useKeepPair } from '../api/keepPair'
import { useRecordTakesNone } from '../api/recordTakesNone'
import { useReviewPairAgain } from '../api/reviewPairAgain'
import type { CurrentMedicineInput } from '../api/saveCurrentMedicine'
import { STOP_CATEGORIES, type StopCategory } from '../api/stopCurrentMedicine'
import { ROUTES } from '../api/types'
import { MedicineInput } from './PrescriptionEditor'

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

/** A start as recorded (a day, a month or a year) in the user's format. */
export function partialDay(s: string, lang?: string) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDay(s, lang)
  if (/^\d{4}-\d{2}$/.test(s)) return formatMonth(`${s}-01T00:00:00`, lang)
  return s
}

/** Reads a start or stop typed in the user's order (05.03.2024, 03/2024, 2024/03/05, 2024/03) as the API takes it; anything else as typed, for the server to refuse. */
export function readPartialDay(text: string) {
  const s = text.trim()
  const day = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s)
  if (day) return `${day[3]}-${day[2].padStart(2, '0')}-${day[1].padStart(2, '0')}`
  const yearFirst = /^(\d{4})[./](\d{1,2})(?:[./](\d{1,2}))?$/.exec(s)
  if (yearFirst) return [yearFirst[1], yearFirst[2].padStart(2, '0'), ...(yearFirst[3] ? [yearFirst[3].padStart(2, '0')] : [])].join('-')
  const month = /^(\d{1,2})[./](\d{4})$/.exec(s)
  if (month) return `${month[2]}-${month[1].padStart(2, '0')}`
  return s
}

const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

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
    m.route && t('currentMeds.routeIs', { route: t(`rx.routes.${m.route}`) }),
    m.indication && t('currentMeds.indicationIs', { indication: m.indication }),
    m.last_dose && t('currentMeds.lastDoseIs', { when: lastDose(m.last_dose) }),
    m.information_source && t('currentMeds.infoSourceIs', { source: t(`currentMeds.infoSource.${m.information_source}`) }),
  ].filter(Boolean)
  return (
    <div style={{ minWidth: 0 }}>
      <div>
        <strong>{m.medicine}</strong>
        {how && <span>, {how}</span>}
      </div>
      <Space size={[4, 4]} wrap style={{ marginTop: 4 }}>
        <Tag color={SOURCE_COLOUR[m.source]}>{t(`currentMeds.source.${m.source}`)}</Tag>
        {m.source !== 'here' && <ReadAsTag m={m} />}
        {m.needs_review && (
          <Tag color="gold" icon={<AuditOutlined aria-hidden />} title={t('currentMeds.notReviewedHint')} data-testid="not-reviewed">
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
      </Space>
      {reconciled.length > 0 && (
        <Typography.Text style={{ display: 'block', fontSize: 13 }} data-testid="reconciled">
          {reconciled.join(' · ')}
        </Typography.Text>
      )}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 13 }}>
        {facts.join(' · ')}
      </Typography.Text>
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

/** The shortest reason for keeping both that the server takes: 5 characters, or 2 ideographs or syllables ("出血"). */
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
export const keepReasonLongEnough = (text: string) => {
  const v = text.trim()
  return [...v].length >= (IDEOGRAPH.test(v) ? 2 : 5)
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
    <div data-testid="list-review" style={{ marginBottom: 8 }}>
      {count > 0 && (
        <>
          <Typography.Text strong>{t('currentMeds.reviewTitle', { count })}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ fontSize: 13, marginBottom: 4 }}>
            {t('currentMeds.reviewHint')}
          </Typography.Paragraph>
        </>
      )}
      {open.map(({ m, findings }, i) => (
        <div key={keyOf(m, i)}>
          <LineFindings findings={findings} title={m.medicine} />
          {canKeepPair && (
            <Space size={4} wrap style={{ marginTop: -4, marginBottom: 8 }}>
              {findings
                .filter((f) => f.pair)
                .map((f) => (
                  <Button
                    key={f.key}
                    size="small"
                    icon={<CheckOutlined aria-hidden />}
                    aria-label={t('currentMeds.keepBothNamed', { medicine: m.medicine, other: f.other_medicine ?? '' })}
                    onClick={() => setKeeping({ m, f })}
                  >
                    {findings.length > 1 ? t('currentMeds.keepBothNamed', { medicine: m.medicine, other: f.other_medicine ?? '' }) : t('currentMeds.keepBoth')}
                  </Button>
                ))}
            </Space>
          )}
        </div>
      ))}
      {kept.length > 0 && (
        <div data-testid="kept-pairs" style={{ marginTop: count ? 4 : 0 }}>
          <Typography.Text type="secondary" strong style={{ fontSize: 13 }}>
            {t('currentMeds.keptTitle')}
          </Typography.Text>
          <ul style={{ margin: '2px 0 0', paddingInlineStart: 18, fontSize: 13 }}>
            {kept.map(({ m, f }) => (
              <li key={`${keyOf(m, 0)}-${f.key}`} data-testid="kept-pair">
                <Typography.Text delete type="secondary">
                  {m.medicine}: {text(f)}
                </Typography.Text>
                <div>
                  <Typography.Text type="secondary">
                    {t(f.kept?.prescribed ? 'currentMeds.keptPrescribed' : 'currentMeds.keptBy', {
                      name: f.kept?.by ?? '',
                      date: formatDay(f.kept?.at ?? ''),
                      reason: f.kept?.reason ?? '',
                    })}
                  </Typography.Text>{' '}
                  {canKeepPair && f.pair && (
                    <Button
                      size="small"
                      type="link"
                      style={{ paddingInline: 0, height: 'auto' }}
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

/** Keeps a finding of the list's review knowingly: why both medicines stay, in the doctor's words. */
function KeepDialog({ patientId, m, f, onClose }: { patientId: number; m: CurrentMedicine; f: Finding; onClose(): void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const text = useFindingText()
  const [form] = Form.useForm<{ reason: string }>()
  const keep = useKeepPair(patientId)
  const submit = async ({ reason }: { reason: string }) => {
    if (!f.pair) return
    try {
      await keep.mutateAsync({ ...f.pair, reason: reason.trim() })
      message.success(t('currentMeds.keptSaved'))
      onClose()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal
      open
      title={t('currentMeds.keepTitle', { medicine: m.medicine, other: f.other_medicine ?? '' })}
      okText={t('currentMeds.keepOk')}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={keep.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph>{text(f)}</Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
        {t('currentMeds.keepHint')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="reason"
          label={t('currentMeds.keepReason')}
          rules={[{ validator: (_, v: string | undefined) => (keepReasonLongEnough(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('currentMeds.keepReasonShort')))) }]}
        >
          <Input.TextArea rows={3} maxLength={500} placeholder={t('currentMeds.keepReasonPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

/** With nothing current: "asked, takes no medicines" as answered (when, by whom), or a way to record it (M4). */
function TakesNoneLine({ patientId, canKeep }: { patientId: number; canKeep: boolean }) {
  const { t } = useTranslation()
  const none = useTakesNone(patientId)
  const record = useRecordTakesNone(patientId)
  if (none.data) return <Typography.Text data-testid="takes-none">{t('currentMeds.takesNoneAsked', { date: formatDay(none.data.asked_at), name: none.data.asked_by })}</Typography.Text>
  if (!canKeep || none.isLoading) return null
  return (
    <Button size="small" onClick={() => record.mutate()} loading={record.isPending}>
      {t('currentMeds.takesNoneButton')}
    </Button>
  )
}

/** The dialog's values: the last dose as a day and an optional time. */
type MedicineForm = CurrentMedicineInput & { last_dose_day?: Dayjs | null; last_dose_time?: string }

const TIME = /^([01]?\d|2[0-3]):[0-5]\d$/

/** The last dose as the API takes it: YYYY-MM-DD, with THH:MM when a time is given. */
export function lastDoseOf(day?: Dayjs | null, time?: string) {
  if (!day) return ''
  const hhmm = (time ?? '').trim()
  return TIME.test(hhmm) ? `${day.format('YYYY-MM-DD')}T${hhmm.padStart(5, '0')}` : day.format('YYYY-MM-DD')
}

/** Adds or corrects a recorded medicine; after a save, what the check read it as and what it says of it beside everything else the patient takes. */
function MedicineDialog({ patientId, m, onClose }: { patientId: number; m?: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const [form] = Form.useForm<MedicineForm>()
  const save = useSaveCurrentMedicine()
  const canReview = useCanReview()
  const source = Form.useWatch('source', form)
  const picked = Form.useWatch('medicine_id', form)
  const typed = Form.useWatch('medicine', form)
  const submit = async ({ last_dose_day, last_dose_time, ...v }: MedicineForm) => {
    try {
      const input: CurrentMedicineInput = {
        ...v,
        medicine_id: v.medicine_id ?? null,
        started_on: readPartialDay(v.started_on ?? ''),
        prescriber: v.prescriber ?? '',
        route: v.route ?? '',
        indication: v.indication ?? '',
        adherence: v.adherence ?? '',
        information_source: v.information_source ?? '',
        last_dose: lastDoseOf(last_dose_day, last_dose_time),
        version: m?.version ?? 0,
      }
      const saved = await save.mutateAsync({ patientId, id: m?.id, input })
      message.success(t('currentMeds.saved'))
      onClose()
      const unread = saved.read_as?.length === 0
      if (saved.findings?.length || unread) {
        modal.warning({
          title: t('currentMeds.checkTitle', { medicine: saved.medicine }),
          content: (
            <>
              {unread && <Alert type="error" showIcon title={t('currentMeds.notRecognisedHint')} style={{ marginBottom: 8 }} />}
              {/* recording what the patient takes asks for no reason: whoever records it tells the doctor, or resolves it on the list */}
              <LineFindings findings={saved.findings ?? []} title={canReview ? t('currentMeds.recordedWarningDoctor') : t('currentMeds.recordedWarning')} />
            </>
          ),
          width: 560,
        })
      }
    } catch (e) {
      // the server names the last dose as one field: shown under its day
      if (e instanceof ApiError && e.fields.last_dose) e.fields.last_dose_day = e.fields.last_dose
      showFormErrors(form, message, e)
    }
  }
  const [day, time] = (m?.last_dose ?? '').split('T')
  return (
    <Modal
      open
      title={m ? t('currentMeds.editTitle') : t('currentMeds.addTitle')}
      okText={t('currentMeds.save')}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<MedicineForm>
        form={form}
        name="currentMedicine"
        layout="vertical"
        onFinish={submit}
        initialValues={{
          medicine_id: m?.medicine_id ?? null,
          medicine: m?.medicine ?? '',
          dose: m?.dose ?? '',
          frequency: m?.frequency ?? '',
          source: m?.source === 'otc' ? 'otc' : 'elsewhere',
          prescriber: m?.prescriber ?? '',
          // Shown as the user writes it (03.2019, not 2019-03), read back by readPartialDay.
          started_on: m?.started_on ? partialDay(m.started_on) : '',
          route: m?.route || undefined,
          indication: m?.indication ?? '',
          adherence: m?.adherence || undefined,
          information_source: m?.information_source || undefined,
          last_dose_day: day ? dayjs(day) : null,
          last_dose_time: time ?? '',
        }}
      >
        <Form.Item name="medicine" label={t('currentMeds.medicine')} rules={[{ required: true, whitespace: true, message: t('currentMeds.medicineRequired') }]} extra={t('currentMeds.catalogueHint')}>
          <MedicineInput label={t('currentMeds.medicine')} picks={false} onPick={(p) => form.setFieldValue('medicine_id', p?.id ?? null)} />
        </Form.Item>
        <Form.Item name="medicine_id" hidden>
          <Input />
        </Form.Item>
        {!picked && typed?.trim() && <Alert type="warning" showIcon title={t('currentMeds.typedHint')} style={{ marginBottom: 16 }} />}
        <Form.Item name="source" label={t('currentMeds.sourceLabel')}>
          <Radio.Group
            options={[
              { value: 'elsewhere', label: t('currentMeds.source.elsewhere') },
              { value: 'otc', label: t('currentMeds.source.otc') },
            ]}
          />
        </Form.Item>
        {source === 'elsewhere' && (
          <Form.Item name="prescriber" label={t('currentMeds.prescriber')}>
            <Input maxLength={200} placeholder={t('currentMeds.prescriberHint')} />
          </Form.Item>
        )}
        <Flex gap={12} wrap>
          <Form.Item name="dose" label={t('currentMeds.dose')} style={{ flex: '1 1 140px' }}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="frequency" label={t('currentMeds.frequency')} style={{ flex: '1 1 140px' }}>
            <Input maxLength={200} />
          </Form.Item>
        </Flex>
        <Form.Item name="started_on" label={t('currentMeds.started')} extra={t('currentMeds.startedHint')}>
          <Input maxLength={10} />
        </Form.Item>
        {/* An h3 under the chart's h2 (a level-5 heading skipped two), drawn as the h5 was. */}
        <Typography.Title level={3} style={{ marginTop: 0, fontSize: 16, lineHeight: 1.5 }}>
          {t('currentMeds.reconcileTitle')}
        </Typography.Title>
        <Flex gap={12} wrap>
          <Form.Item name="route" label={t('currentMeds.route')} style={{ flex: '1 1 160px' }}>
            <Select allowClear options={ROUTES.map((r) => ({ value: r, label: t(`rx.routes.${r}`) }))} />
          </Form.Item>
          <Form.Item name="indication" label={t('currentMeds.indication')} style={{ flex: '1 1 160px' }}>
            <Input maxLength={200} placeholder={t('currentMeds.indicationHint')} />
          </Form.Item>
        </Flex>
        <Flex gap={12} wrap>
          <Form.Item name="last_dose_day" label={t('currentMeds.lastDose')} style={{ flex: '1 1 160px' }}>
            <DateInput style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
          </Form.Item>
          <Form.Item
            name="last_dose_time"
            label={t('currentMeds.lastDoseTime')}
            style={{ flex: '1 1 100px' }}
            rules={[{ pattern: TIME, message: t('currentMeds.timeFormat') }]}
          >
            <Input maxLength={5} placeholder="08:00" />
          </Form.Item>
        </Flex>
        <Form.Item name="adherence" label={t('currentMeds.adherenceLabel')}>
          <Radio.Group options={ADHERENCES.map((a) => ({ value: a, label: t(`currentMeds.adherence.${a}`) }))} />
        </Form.Item>
        <Form.Item name="information_source" label={t('currentMeds.infoSourceLabel')}>
          <Select allowClear options={INFO_SOURCES.map((a) => ({ value: a, label: t(`currentMeds.infoSource.${a}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

type StopForm = { stopped_on: string; category?: StopCategory; reason: string }

/** Stops a recorded medicine: from a day (today unless said), why in a category, and in words (required for "other"); at a visit, for its summary. A side effect suggests recording an allergy or intolerance. */
function StopDialog({ m, appointmentId, onClose }: { m: CurrentMedicine; appointmentId?: number; onClose(): void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<StopForm>()
  const stop = useStopCurrentMedicine()
  const category = Form.useWatch('category', form)
  const submit = async (v: StopForm) => {
    try {
      await stop.mutateAsync({ m, stopped_on: readPartialDay(v.stopped_on ?? ''), category: v.category as StopCategory, reason: v.reason ?? '', appointmentId })
      message.success(t('currentMeds.stopped', { medicine: m.medicine }))
      onClose()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal
      open
      title={t('currentMeds.stopTitle', { medicine: m.medicine })}
      okText={t('currentMeds.stop')}
      okButtonProps={{ danger: true }}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={stop.isPending}
      destroyOnHidden
    >
      <Form form={form} name="stopMedicine" layout="vertical" onFinish={submit} initialValues={{ stopped_on: formatDay(today()), reason: '' }}>
        <Form.Item name="stopped_on" label={t('currentMeds.stoppedOn')}>
          <Input maxLength={10} />
        </Form.Item>
        <Form.Item name="category" label={t('currentMeds.stopReason')} rules={[{ required: true, message: t('currentMeds.categoryRequired') }]}>
          <Select options={STOP_CATEGORIES.map((c) => ({ value: c, label: t(`currentMeds.stopCategory.${c}`) }))} />
        </Form.Item>
        {category === 'side_effect' && <Alert type="info" showIcon title={t('currentMeds.allergyHint')} style={{ marginBottom: 16 }} data-testid="allergy-hint" />}
        <Form.Item
          name="reason"
          label={category === 'other' ? t('currentMeds.stopDetails') : t('currentMeds.stopDetailsOptional')}
          rules={[{ required: category === 'other', whitespace: true, message: t('currentMeds.reasonRequired') }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

/** Marks a recorded entry entered in error — made by accident, not a medicine the patient took and stopped — for a reason. */
function InErrorDialog({ m, onClose }: { m: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ reason: string }>()
  const mark = useMarkInError()
  const submit = async (v: { reason: string }) => {
    try {
      await mark.mutateAsync({ m, reason: v.reason })
      message.success(t('currentMeds.inErrorDone', { medicine: m.medicine }))
      onClose()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal
      open
      title={t('currentMeds.inErrorTitle', { medicine: m.medicine })}
      okText={t('currentMeds.inErrorOk')}
      okButtonProps={{ danger: true }}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={mark.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('currentMeds.inErrorHint')}</Typography.Paragraph>
      <Form form={form} name="inErrorMedicine" layout="vertical" onFinish={submit} initialValues={{ reason: '' }}>
        <Form.Item name="reason" label={t('currentMeds.inErrorReason')} rules={[{ required: true, whitespace: true, message: t('currentMeds.reasonRequired') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} autoFocus placeholder={t('currentMeds.inErrorPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

type Dialog = { kind: 'add' } | { kind: 'edit' | 'stop' | 'error'; m: CurrentMedicine } | null

/** The dialogs of the list, and a way to open them; at a visit, a stop is said to be at it. */
function useDialogs(patientId: number, appointmentId?: number) {
  const [dialog, setDialog] = useState<Dialog>(null)
  const close = () => setDialog(null)
  const node =
    dialog?.kind === 'add' ? (
      <MedicineDialog patientId={patientId} onClose={close} />
    ) : dialog?.kind === 'edit' ? (
      <MedicineDialog patientId={patientId} m={dialog.m} onClose={close} />
    ) : dialog?.kind === 'stop' ? (
      <StopDialog m={dialog.m} appointmentId={appointmentId} onClose={close} />
    ) : dialog?.kind === 'error' ? (
      <InErrorDialog m={dialog.m} onClose={close} />
    ) : null
  return { open: setDialog, node }
}

const keyOf = (m: CurrentMedicine, i: number) => (m.id ? `taken-${m.id}` : `rx-${m.prescription_id}-${i}`)

/** Why a medicine was stopped: its category, then its words. */
function useStopWhy() {
  const { t } = useTranslation()
  return (m: CurrentMedicine) => [m.stop_category && t(`currentMeds.stopCategory.${m.stop_category}`), m.stop_reason].filter(Boolean).join(': ')
}

/** The entries entered in error, folded away and struck out: for the entry's history, with why, when and who. */
function InErrorList({ list }: { list: CurrentMedicine[] }) {
  const { t } = useTranslation()
  if (!list.length) return null
  return (
    <Collapse
      ghost
      size="small"
      items={[
        {
          key: 'in-error',
          label: t('currentMeds.inErrorList', { count: list.length }),
          children: (
            <List
              size="small"
              dataSource={list}
              renderItem={(m) => (
                <List.Item data-testid="in-error-entry">
                  <span>
                    <s>{[m.medicine, m.dose, m.frequency].filter(Boolean).join(', ')}</s> —{' '}
                    {t('currentMeds.inErrorBy', { date: m.error_at ? formatDay(m.error_at) : '', reason: m.error_reason, name: m.error_by ?? '' })}
                  </span>
                </List.Item>
              )}
            />
          ),
        },
      ]}
    />
  )
}

/** The stopped ones, folded away: when and why, and who heard it. */
function Stopped({ list }: { list: CurrentMedicine[] }) {
  const { t } = useTranslation()
  const stopWhy = useStopWhy()
  if (!list.length) return null
  return (
    <Collapse
      ghost
      size="small"
      items={[
        {
          key: 'stopped',
          label: t('currentMeds.stoppedList', { count: list.length }),
          children: (
            <List
              size="small"
              dataSource={list}
              renderItem={(m) => (
                <List.Item>
                  <span>
                    <s>{m.medicine}</s> — {t('currentMeds.stoppedOnBy', { date: formatDay(m.stopped_on), reason: stopWhy(m), name: m.stopped_by ?? '' })}
                  </span>
                </List.Item>
              )}
            />
          ),
        },
      ]}
    />
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
      data-testid="current-medicines"
      title={t('currentMeds.title')}
      extra={
        canKeep && (
          <Button size="small" icon={<PlusOutlined aria-hidden />} onClick={() => dialogs.open({ kind: 'add' })}>
            {t('currentMeds.add')}
          </Button>
        )
      }
    >
      <ListReview patientId={patientId} active={active} />
      <List
        loading={list.isLoading}
        dataSource={active}
        locale={{ emptyText: <Typography.Text type="secondary">{t('currentMeds.none')}</Typography.Text> }}
        renderItem={(m, i) => (
          <List.Item key={keyOf(m, i)}>
            <Flex justify="space-between" align="flex-start" gap={8} wrap style={{ width: '100%' }}>
              <MedicineLine m={m} />
              {canKeep && (
                <Space size={4} wrap>
                  {canReview && m.needs_review && <ReviewButton m={m} onReview={() => review.mutate({ m })} pending={review.isPending} />}
                  {m.source !== 'here' && (
                    <Button size="small" icon={<EditOutlined aria-hidden />} aria-label={t('currentMeds.editNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'edit', m })}>
                      {t('currentMeds.edit')}
                    </Button>
                  )}
                  <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stopNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                    {t('currentMeds.stop')}
                  </Button>
                  {m.source !== 'here' && (
                    <Button size="small" icon={<CloseCircleOutlined aria-hidden />} aria-label={t('currentMeds.inErrorNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'error', m })}>
                      {t('currentMeds.inError')}
                    </Button>
                  )}
                </Space>
              )}
            </Flex>
          </List.Item>
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
    <Button size="small" type="primary" ghost icon={<AuditOutlined aria-hidden />} aria-label={t('currentMeds.markReviewedNamed', { medicine: m.medicine })} onClick={onReview} loading={pending}>
      {t('currentMeds.markReviewed')}
    </Button>
  )
}

/** A visit's reconciliation: for each medicine recorded as taken, "still taking?" — confirm it (one or all) or stop it; a line prescribed here can be said stopped. */
export function VisitMedicines({ patientId, appointmentId, closed }: { patientId: number; appointmentId: number; closed: boolean }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
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
    message.success(t('currentMeds.allConfirmed'))
  }
  return (
    // The question is the title, whole; the button to record one more sits below the list.
    <Card data-testid="still-taking" title={<span style={{ whiteSpace: 'normal' }}>{t('currentMeds.stillTaking')}</span>}>
      {canKeep && open.length > 1 && (
        <Button block icon={<CheckOutlined aria-hidden />} onClick={() => void confirmAll()} loading={confirm.isPending} style={{ marginBottom: 8 }}>
          {t('currentMeds.confirmAll', { count: open.length })}
        </Button>
      )}
      <ListReview patientId={patientId} active={active} />
      <List
        loading={list.isLoading}
        dataSource={active}
        locale={{ emptyText: <Typography.Text type="secondary">{t('currentMeds.none')}</Typography.Text> }}
        renderItem={(m, i) => (
          <List.Item key={keyOf(m, i)}>
            <Flex vertical gap={6} style={{ width: '100%' }}>
              <MedicineLine m={m} />
              {m.source === 'here' && canKeep && (
                <Space size={4} wrap>
                  <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                    {t('currentMeds.stillTakingNo')}
                  </Button>
                </Space>
              )}
              {canReview && canKeep && m.needs_review && (
                <span>
                  <ReviewButton m={m} onReview={() => review.mutate({ m })} pending={review.isPending} />
                </span>
              )}
              {m.source !== 'here' &&
                (asked(m) ? (
                  <span>
                    <Tag color="green" icon={<CheckOutlined aria-hidden />}>
                      {t('currentMeds.confirmedHere')}
                    </Tag>
                  </span>
                ) : (
                  canKeep && (
                    <Space size={4} wrap>
                      <Button size="small" type="primary" ghost icon={<CheckOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNamed', { medicine: m.medicine })} onClick={() => confirm.mutate({ m, appointmentId })}>
                        {t('currentMeds.stillTakingYes')}
                      </Button>
                      <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                        {t('currentMeds.stillTakingNo')}
                      </Button>
                    </Space>
                  )
                ))}
            </Flex>
          </List.Item>
        )}
      />
      {!list.isLoading && active.length === 0 && <TakesNoneLine patientId={patientId} canKeep={canKeep} />}
      {canKeep && (
        <Button type="dashed" block size="small" icon={<PlusOutlined aria-hidden />} onClick={() => dialogs.open({ kind: 'add' })} style={{ marginTop: 8 }}>
          {t('currentMeds.add')}
        </Button>
      )}
      {dialogs.node}
    </Card>
  )
}
