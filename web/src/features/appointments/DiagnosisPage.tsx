import { BookOutlined, CopyOutlined, QuestionCircleOutlined, SaveOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Col, Form, Result, Row, Space, Tag } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { useAskReason } from '../../components/askReason'
import { PatientBanner } from '../../components/PatientBanner'
import { VisitHistory } from '../../components/VisitHistory'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { useChartValues, useSnippets } from '../../lib/charting'
import { formatDay } from '../../lib/time'
import { mergeMine } from '../../lib/merge'
import { fullName } from '../../lib/patient'
import { Slot } from '../../lib/slots'
import { useViewSubject } from '../../lib/viewSubject'
import { useChangeStatus } from './api/changeStatus'
import { useAppointment } from './api/getAppointment'
import { usePatientHead } from './api/getPatientHead'
import { getVisit, useVisit } from './api/getVisit'
import { useLabTests } from './api/listLabTests'
import type { Appointment, Visit, VisitContent } from './api/types'
import { useWriteVisit } from './api/writeVisit'
import { VITAL_FIELDS, vitalErrors } from './vitals'
import { AmendmentsCard } from './visit/AmendmentsCard'
import { contentOf, sendable } from './visit/content'
import { CopyForwardDialog, type Copyable } from './visit/CopyForwardDialog'
import { DiagnosesCard } from './visit/DiagnosesCard'
import { FindingsCard } from './visit/FindingsCard'
import { OrdersCard } from './visit/OrdersCard'
import { PlanCard } from './visit/PlanCard'
import { shortcutOf, type ShortcutAction } from './visit/shortcuts'
import { ShortcutsDialog } from './visit/ShortcutsDialog'
import type { TextAids } from './visit/textAids'
import { useAutosave } from './visit/useAutosave'
import { useRefusals } from './visit/useRefusals'
import { VisitActions } from './visit/VisitActions'
import { VisitHeader } from './visit/VisitHeader'
import { visitMode } from './visit/visitMode'
import { VitalsCard } from './visit/VitalsCard'
import { PageSkeleton } from '../../components/PageSkeleton'

/** The labels of diagnoses' codes. */
const labelsOf = (diagnoses: Visit['diagnoses']) => Object.fromEntries(diagnoses.filter((d) => d.code).map((d) => [d.code, d.label ?? '']))

/** How long after the last keystroke the form saves itself. */
const AUTOSAVE_MS = 1200

/** /appointments/form/{id}: the visit's diagnosis form. */
export default function DiagnosisPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const appointment = useAppointment(id)
  const visit = useVisit(id)
  // The banner's facts (allergies, history) come with the form, not after it, so it does not jump.
  const patient = usePatientHead(appointment.data?.patient_id)
  useViewSubject(appointment.data ? fullName(appointment.data.patient) : undefined)
  const error = appointment.error ?? visit.error
  if (error) {
    const forbidden = error instanceof ApiError && error.status === 403
    return <Result status={forbidden ? '403' : '404'} subTitle={forbidden ? t('visit.forbidden') : t('visit.notFound')} />
  }
  if (!appointment.data || !visit.data || patient.isPending) return <PageSkeleton banner />
  return <DiagnosisForm key={id} appointment={appointment.data} visit={visit.data} />
}

function DiagnosisForm({ appointment: a, visit }: { appointment: Appointment; visit: Visit }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const askReason = useAskReason()
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const write = useWriteVisit(a.id)
  const start = useChangeStatus()
  const labTests = useLabTests(canDiagnose)
  const patient = usePatientHead(a.patient_id)
  const [form] = Form.useForm<VisitContent>()
  const [amending, setAmending] = useState(false)
  const [savedAt, setSavedAt] = useState<string | null>(visit.updated_at)
  /** The saved vitals and the server's flags of them, for the patient's age on the visit's day. */
  const [savedVitals, setSavedVitals] = useState(() => ({ vitals: contentOf(visit).vitals, flags: visit.vital_flags }))
  const version = useRef(visit.version)
  const [initial] = useState(() => contentOf(visit))
  const loaded = useRef(initial)
  const { problem, setProblem, sending, refused } = useRefusals(form)
  /** The codes' labels the diagnosis rows show: the visit's as read, and those a set or copy brought in. */
  const [labels, setLabels] = useState<Record<string, string>>(() => labelsOf(visit.diagnoses))

  const signed = visit.status === 'signed'
  const mode = visitMode({ signed, amending, canDiagnose, canVitals, status: a.status })
  const ro = mode !== 'draft' && mode !== 'amend'
  const charting = canDiagnose && (mode === 'draft' || mode === 'amend')
  const snippets = useSnippets(charting)
  const chartValues = useChartValues(charting ? a.id : undefined)
  const [dialog, setDialog] = useState<'apply' | 'save' | 'copy' | 'help' | null>(null)
  /** The sections copied forward and not changed since, with the day they were written. */
  const [copied, setCopied] = useState<Record<string, string>>({})
  const aids: TextAids = {
    snippets: charting ? (snippets.data ?? []) : [],
    values: () => {
      const v = form.getFieldValue('vitals') as VisitContent['vitals'] | undefined
      const out: Record<string, string> = { ...chartValues.data }
      if (v?.bp_systolic && v?.bp_diastolic) out['vitals.bp'] = `${v.bp_systolic}/${v.bp_diastolic}` // as typed, saved or not
      return out
    },
    copied: (field) =>
      copied[field] ? (
        <Tag icon={<CopyOutlined aria-hidden />} data-testid="copied-mark">
          {t('copyForward.copiedOn', { date: formatDay(copied[field]) })}
        </Tag>
      ) : null,
  }

  /** What is typed, as the server takes it (remembering which form row each diagnosis is). */
  const values = (): VisitContent => {
    const { content, rows } = sendable(loaded.current, form.getFieldsValue(true) as Partial<VisitContent>)
    sending(rows)
    return content
  }
  /** A save went through: remember what the server has now. */
  const stored = (v: Visit) => {
    version.current = v.version
    loaded.current = contentOf(v)
    setSavedAt(v.updated_at)
    setSavedVitals({ vitals: loaded.current.vitals, flags: v.vital_flags })
  }

  const autosave = useAutosave({
    enabled: mode === 'draft' || mode === 'vitals',
    delay: AUTOSAVE_MS,
    initial: visit.version > 0 ? 'saved' : 'idle',
    failed: refused,
    run: () => {
      const content = values()
      const bad = vitalErrors(content.vitals)
      form.setFields(VITAL_FIELDS.map((f) => ({ name: ['vitals', f.key], errors: bad[f.key] ? [t(bad[f.key]!)] : [] })))
      if (Object.keys(bad).length > 0) return null
      setProblem('')
      const w = mode === 'vitals' ? ({ kind: 'vitals', vitals: content.vitals, version: version.current } as const) : ({ kind: 'draft', content, version: version.current } as const)
      return write.mutateAsync(w).then((v) => {
        stored(v)
        // What it sent is valid: no diagnosis row stays marked.
        const rows = (form.getFieldValue('diagnoses') as unknown[] | undefined) ?? []
        form.setFields(rows.flatMap((_, i) => (['code', 'text'] as const).map((f) => ({ name: ['diagnoses', i, f] as never, errors: [] }))))
      })
    },
  })

  /** After a conflict: their newer version, with this user's own changes on top; then save. */
  const reloadKeepingMine = async () => {
    const latest = await getVisit(a.id)
    const merged = mergeMine(loaded.current, values(), contentOf(latest), ['vitals'])
    version.current = latest.version
    loaded.current = contentOf(latest)
    form.setFieldsValue(merged)
    void message.info(t('visit.conflictMerged'))
    if (latest.status === 'signed') autosave.setState('idle')
    else autosave.saveNow()
  }

  /** Runs an explicit write (sign, amend) alone, after any autosave on its way. */
  const explicitly = async (writes: () => Promise<void>) => {
    await autosave.settle()
    try {
      await writes()
      autosave.setState('saved')
    } catch (e) {
      autosave.setState(refused(e))
    }
  }
  const sign = () =>
    void modal.confirm({
      title: t('visit.signTitle'),
      content: t('visit.signText'),
      okText: t('visit.sign'),
      cancelText: t('appointments.cancelButton'),
      // Whatever is typed but unsaved is saved first, then signed.
      onOk: () =>
        explicitly(async () => {
          stored(await write.mutateAsync({ kind: 'draft', content: values(), version: version.current }))
          stored(await write.mutateAsync({ kind: 'sign', version: version.current }))
          void message.success(t('visit.signed'))
        }),
    })
  const amend = () =>
    askReason({
      title: t('visit.amendTitle'),
      label: t('visit.amendReason'),
      okText: t('visit.saveAmendment'),
      cancelText: t('appointments.cancelButton'),
      onOk: (reason) =>
        explicitly(async () => {
          stored(await write.mutateAsync({ kind: 'amend', content: values(), version: version.current, reason }))
          setAmending(false)
          void message.success(t('visit.amended'))
        }),
    })

  /** Saves what is typed now and answers the visit's version (an order set applies on top of it). */
  const prepare = async () => {
    await autosave.settle()
    const v = await write.mutateAsync({ kind: 'draft', content: values(), version: version.current })
    stored(v)
    return v.version
  }
  /** A set was applied: the form shows the visit as the server has it now. */
  const applied = (v: Visit) => {
    setLabels((l) => ({ ...l, ...labelsOf(v.diagnoses) }))
    stored(v)
    form.setFieldsValue(contentOf(v))
    autosave.setState('saved')
  }
  /** Parts of the previous visit were copied in: marked until changed, saved soon. */
  const copiedIn = (next: VisitContent, parts: Copyable[], day: string, from: Visit) => {
    setLabels((l) => ({ ...l, ...labelsOf(from.diagnoses) }))
    form.setFieldsValue(next)
    setCopied((c) => ({ ...c, ...Object.fromEntries(parts.filter((p) => p !== 'vitals').map((p) => [p, day])) }))
    autosave.changed()
  }
  const valuesChanged = (changed: Partial<VisitContent>) => {
    if ('vitals' in changed) form.setFieldValue('vitals_copied_from', '') // measured now
    const keys = Object.keys(changed)
    if (keys.some((k) => copied[k])) setCopied((c) => Object.fromEntries(Object.entries(c).filter(([k]) => !keys.includes(k))))
    autosave.changed()
  }

  // The keyboard: Alt shortcuts and "?" (visit/shortcuts.ts); none while a dialog is open.
  const run = useRef<(action: ShortcutAction) => void>(() => {})
  const runAction = (action: ShortcutAction) => {
    const focusIn = (id: string) => document.getElementById(id)?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, button')?.focus()
    const add = (what: string, section: string) => {
      document.querySelector<HTMLElement>(`[data-action="${what}"]`)?.click()
      setTimeout(() => [...document.querySelectorAll<HTMLElement>(`#${section} .ant-select input`)].pop()?.focus())
    }
    switch (action) {
      case 'help':
        return setDialog('help')
      case 'vitals':
      case 'findings':
      case 'diagnoses':
      case 'orders':
      case 'plan':
        return focusIn(`visit-${action}`)
      case 'addDiagnosis':
        return !ro && add('add-diagnosis', 'visit-diagnoses')
      case 'addTest':
        return !ro && add('add-test', 'visit-orders')
      case 'orderSet':
        return mode === 'draft' && canDiagnose && setDialog('apply')
      case 'saveSet':
        return canDiagnose && setDialog('save')
      case 'copyForward':
        return mode === 'draft' && canDiagnose && setDialog('copy')
      case 'sign':
        return mode === 'draft' && sign()
    }
  }
  useEffect(() => {
    run.current = runAction
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('.ant-modal-wrap:not([style*="display: none"])')) return
      const action = shortcutOf(e, document.activeElement)
      if (!action) return
      e.preventDefault()
      run.current(action)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const state = autosave.state
  const actions = (
    <VisitActions
      mode={mode}
      canAmend={signed && canDiagnose && !amending}
      onStart={canDiagnose && a.status === 'arrived' ? () => start.mutate({ a, action: 'start' }, { onSuccess: () => void message.success(t('appointments.done.start')) }) : undefined}
      starting={start.isPending}
      onSign={sign}
      signing={write.isPending && state !== 'saving'}
      onAmend={() => setAmending(true)}
      onDiscard={() => (form.setFieldsValue(loaded.current), setAmending(false))}
      onSaveAmendment={amend}
    />
  )

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {patient.data && (
        <div className="emr-sticky">
          <PatientBanner patient={{ ...a.patient, ...patient.data.history }} />
        </div>
      )}
      <VisitHeader a={a} visit={visit} state={state} savedAt={savedAt} quiet={mode === 'read'} actions={actions} />
      {mode === 'vitals' && canDiagnose && a.status === 'arrived' && <Alert type="info" showIcon title={t('visit.startFirst')} />}
      {mode === 'amend' && <Alert type="warning" showIcon title={t('visit.amendingBanner')} />}
      {state === 'conflict' && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('visit.conflictTitle')}
          description={t('visit.conflictText')}
          action={<Button onClick={() => void reloadKeepingMine()}>{t('visit.conflictReload')}</Button>}
        />
      )}
      {problem && <Alert type="error" showIcon title={problem} role="alert" closable={{ onClose: () => setProblem('') }} />}
      <Space wrap size={8} role="toolbar" aria-label={t('visit.tools')} className="emr-wrapping-buttons">
        {mode === 'draft' && canDiagnose && (
          <>
            <Button icon={<BookOutlined aria-hidden />} onClick={() => setDialog('apply')} aria-keyshortcuts="Alt+O">
              {t('orderSets.applyOpen')}
            </Button>
            <Button icon={<CopyOutlined aria-hidden />} onClick={() => setDialog('copy')} aria-keyshortcuts="Alt+C">
              {t('copyForward.open')}
            </Button>
          </>
        )}
        {canDiagnose && (mode === 'draft' || signed) && (
          <Button icon={<SaveOutlined aria-hidden />} onClick={() => setDialog('save')} aria-keyshortcuts="Alt+V">
            {t('orderSets.saveOpen')}
          </Button>
        )}
        <Button icon={<QuestionCircleOutlined aria-hidden />} onClick={() => setDialog('help')} aria-keyshortcuts="?">
          {t('shortcuts.open')}
        </Button>
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<VisitContent> form={form} name="visit" layout="vertical" className="emr-record" initialValues={initial} onValuesChange={valuesChanged}>
            <VitalsCard disabled={ro && mode !== 'vitals'} bands={visit.vital_bands} flags={savedVitals.flags} saved={savedVitals.vitals} />
            <FindingsCard disabled={ro} aids={aids} />
            <DiagnosesCard disabled={ro} labels={labels} onChange={autosave.changed} />
            <OrdersCard disabled={ro} tests={labTests.data} ordered={visit.orders} onChange={autosave.changed} />
            <PlanCard disabled={ro} day={a.day} followUp={visit.follow_up} aids={aids} />
          </Form>
          <div style={{ marginTop: 16 }}>
            <Slot name="visitBill" appointmentId={a.id} closed={a.status === 'cancelled' || a.status === 'no-show'} />
          </div>
        </Col>
        <Col xs={24} xl={8}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {visit.amendments.length > 0 && <AmendmentsCard amendments={visit.amendments} />}
            <Slot name="visitResults" appointmentId={a.id} revision={savedAt} />
            <Slot name="visitMedicines" patientId={a.patient_id} appointmentId={a.id} closed={a.status === 'cancelled' || a.status === 'no-show'} />
            <Slot name="visitPrescriptions" appointmentId={a.id} closed={a.status === 'cancelled' || a.status === 'no-show'} />
            <Slot name="visitDocuments" patientId={a.patient_id} appointmentId={a.id} closed={a.status === 'cancelled' || a.status === 'no-show'} />
            {dialog === 'copy' && <CopyForwardDialog a={a} content={() => values()} onCopy={copiedIn} onClose={() => setDialog(null)} />}
            {dialog === 'help' && <ShortcutsDialog onClose={() => setDialog(null)} />}
            <Slot
              name="visitOrderSet"
              appointmentId={a.id}
              day={a.day}
              open={dialog === 'apply' || dialog === 'save' ? dialog : null}
              onClose={() => setDialog(null)}
              content={() => values()}
              prepare={prepare}
              onApplied={applied}
            />
            <Card title={t('visit.sections.previous')}>
              <VisitHistory patientId={a.patient_id} before={{ id: a.id, startsAt: a.starts_at }} />
            </Card>
          </Space>
        </Col>
      </Row>
    </Space>
  )
}
