import { CheckCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Checkbox, Col, Collapse, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Result, Row, Select, Space, Spin, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { VisitHistory } from '../../components/VisitHistory'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { Slot } from '../../lib/slots'
import { debounce } from '../../lib/debounce'
import { mergeMine } from '../../lib/merge'
import { fullName } from '../../lib/patient'
import { useViewSubject } from '../../lib/viewSubject'
import { PatientBanner } from '../../components/PatientBanner'
import { useAskReason } from '../../components/askReason'
import { useChangeStatus } from './api/changeStatus'
import { useAppointment } from './api/getAppointment'
import { usePatientHead } from './api/getPatientHead'
import { getVisit, useVisit } from './api/getVisit'
import { useLabTests } from './api/listLabTests'
import { searchCodes } from './api/searchCodes'
import { chartOf, type Appointment, type Code, type Visit, type VisitContent } from './api/types'
import { useWriteVisit, type VisitWrite } from './api/writeVisit'
import { StatusTag } from './StatusTag'
import { bmi, emptyVitals, VITAL_FIELDS, vitalErrors } from './vitals'
import { useClearable } from '../../components/clearable'
import { dateFormat, formatDayTime } from '../../lib/time'

/** How long after the last keystroke the form saves itself. */
const AUTOSAVE_MS = 1200

const contentOf = (v: Visit): VisitContent => ({
  vitals: { ...emptyVitals(), ...v.vitals },
  chief_complaint: v.chief_complaint,
  present_illness: v.present_illness,
  examination: v.examination,
  diagnoses: v.diagnoses.map(({ code, text, primary }) => ({ code, text, primary })),
  orders: v.orders,
  plan: v.plan,
  follow_up_date: v.follow_up_date,
})

type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'invalid' | 'conflict'

/** /appointments/form/{id}: the visit's diagnosis form. */
export default function DiagnosisPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const appointment = useAppointment(id)
  const visit = useVisit(id)
  useViewSubject(appointment.data ? fullName(appointment.data.patient) : undefined)
  const error = appointment.error ?? visit.error
  if (error) {
    const forbidden = error instanceof ApiError && error.status === 403
    return <Result status={forbidden ? '403' : '404'} subTitle={forbidden ? t('visit.forbidden') : t('visit.notFound')} />
  }
  if (!appointment.data || !visit.data) return <Spin />
  return <DiagnosisForm key={id} appointment={appointment.data} visit={visit.data} />
}

/** A code picker that searches the code list as the doctor types (code or words). */
function CodeSelect({ value, onChange, initialLabel, disabled, id }: { value?: string; onChange?: (v: string) => void; initialLabel?: string; disabled?: boolean; id?: string }) {
  const clear = useClearable()
  const { t } = useTranslation()
  const [options, setOptions] = useState<Code[]>(value ? [{ code: value, label: initialLabel ?? '' }] : [])
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setOptions), 200), [])
  return (
    <Select
      id={id}
      aria-label={t('visit.fields.code')}
      value={value || undefined}
      onChange={(v) => onChange?.(v ?? '')}
      disabled={disabled}
      allowClear={clear.select}
      placeholder={t('visit.codeSearch')}
      showSearch={{ filterOption: false, onSearch: search }}
      onFocus={() => options.length <= 1 && search('')}
      options={options.map((c) => ({ value: c.code, label: `${c.code} — ${c.label}` }))}
      notFoundContent={t('visit.codeNone')}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  )
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button icon={<DeleteOutlined aria-hidden />} aria-label={label} onClick={onClick} />
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
  const [state, setState] = useState<SaveState>(visit.version > 0 ? 'saved' : 'idle')
  const [savedAt, setSavedAt] = useState<string | null>(visit.updated_at)
  const [problem, setProblem] = useState('')
  const version = useRef(visit.version)
  const [initial] = useState(() => contentOf(visit))
  const loaded = useRef(initial)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const inFlight = useRef(false)
  const again = useRef(false)
  const labels = useMemo(() => Object.fromEntries(visit.diagnoses.map((d) => [d.code, d.label ?? ''])), [visit.diagnoses])

  const signed = visit.status === 'signed'
  const mode: 'draft' | 'vitals' | 'amend' | 'read' =
    signed ? (amending ? 'amend' : 'read')
    : canDiagnose && (a.status === 'in-progress' || a.status === 'completed') ? 'draft'
    : canVitals && (a.status === 'arrived' || a.status === 'in-progress') ? 'vitals'
    : 'read'
  const ro = mode !== 'draft' && mode !== 'amend'
  const vitalsRo = ro && mode !== 'vitals'
  const autosaves = mode === 'draft' || mode === 'vitals'

  // The form's row of each diagnosis sent: a row still empty (just added) is not sent.
  const sentRows = useRef<number[]>([])
  const values = (): VisitContent => {
    const v = form.getFieldsValue(true) as Partial<VisitContent>
    const rows = (v.diagnoses ?? []).map((d, row) => ({ row, d: { code: d?.code ?? '', text: (d?.text ?? '').trim(), primary: Boolean(d?.primary) } })).filter(({ d }) => d.code || d.text)
    sentRows.current = rows.map((r) => r.row)
    return {
      ...loaded.current,
      ...v,
      vitals: { ...emptyVitals(), ...v.vitals },
      diagnoses: rows.map((r) => r.d),
      orders: (v.orders ?? []).filter((o) => o?.code).map((o) => ({ code: o.code, note: o.note ?? '' })),
    }
  }

  /** Shows the server's field messages on their fields ("diagnoses.0.code" → ['diagnoses', 0, 'code']). */
  const showFieldErrors = (fields: Record<string, string[]>) => {
    const named = Object.entries(fields).map(([f, errors]) => {
      const path: (string | number)[] = f.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))
      if (path[0] === 'diagnoses' && typeof path[1] === 'number') path[1] = sentRows.current[path[1]] ?? path[1]
      return { name: path as never, errors }
    })
    form.setFields(named)
    const general = fields.diagnoses ?? fields.orders
    if (general) setProblem(general.join(' '))
  }

  /** A save went through: what it sent is valid, so no row stays marked. */
  const clearRowErrors = () => {
    const rows = (form.getFieldValue('diagnoses') as unknown[] | undefined) ?? []
    form.setFields(rows.flatMap((_, i) => (['code', 'text'] as const).map((f) => ({ name: ['diagnoses', i, f] as never, errors: [] }))))
    setProblem('')
  }

  const onWriteError = (e: unknown) => {
    if (!(e instanceof ApiError)) return
    if (e.status === 409 && e.code === 'error.conflict') setState('conflict')
    else if (e.status === 422 && Object.keys(e.fields).length > 0) {
      setState('invalid')
      showFieldErrors(e.fields)
    } else {
      setState('idle')
      void message.error(e.display || t('errors.generic'))
    }
  }

  const save = () => {
    clearTimeout(timer.current)
    if (!autosaves) return
    if (inFlight.current) {
      again.current = true
      return
    }
    const content = values()
    const bad = vitalErrors(content.vitals)
    form.setFields(VITAL_FIELDS.map((f) => ({ name: ['vitals', f.key], errors: bad[f.key] ? [t(bad[f.key]!)] : [] })))
    if (Object.keys(bad).length > 0) {
      setState('invalid')
      return
    }
    setProblem('')
    const w: VisitWrite = mode === 'vitals' ? { kind: 'vitals', vitals: content.vitals, version: version.current } : { kind: 'draft', content, version: version.current }
    inFlight.current = true
    setState('saving')
    write.mutate(w, {
      onSuccess: (v) => {
        version.current = v.version
        loaded.current = contentOf(v)
        setSavedAt(v.updated_at)
        setState('saved')
        clearRowErrors()
      },
      onError: onWriteError,
      onSettled: () => {
        inFlight.current = false
        if (again.current) {
          again.current = false
          save()
        }
      },
    })
  }
  const saveRef = useRef(save)
  useEffect(() => {
    saveRef.current = save
  })

  // Leaving the page saves what is still pending.
  useEffect(
    () => () => {
      if (timer.current !== undefined) {
        clearTimeout(timer.current)
        saveRef.current()
      }
    },
    [],
  )

  const changed = () => {
    if (!autosaves) return
    setState('pending')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      timer.current = undefined
      saveRef.current()
    }, AUTOSAVE_MS)
  }

  /** After a conflict: their newer version, with this user's own changes on top; then save. */
  const reloadKeepingMine = async () => {
    const latest = await getVisit(a.id)
    const merged = mergeMine(loaded.current, values(), contentOf(latest), ['vitals'])
    version.current = latest.version
    loaded.current = contentOf(latest)
    form.setFieldsValue(merged)
    void message.info(t('visit.conflictMerged'))
    if (latest.status === 'signed') {
      setState('idle')
      return
    }
    save()
  }

  const sign = () => {
    clearTimeout(timer.current)
    timer.current = undefined
    void modal.confirm({
      title: t('visit.signTitle'),
      content: t('visit.signText'),
      okText: t('visit.sign'),
      cancelText: t('appointments.cancelButton'),
      onOk: async () => {
        // An autosave still on its way goes first (both would write the same version, and
        // one would be refused); nothing is queued after it: the sign saves what is typed.
        again.current = false
        while (inFlight.current) await new Promise((done) => setTimeout(done, 50))
        // Whatever is typed but unsaved is saved first, then signed.
        const content = values()
        try {
          const saved = await write.mutateAsync({ kind: 'draft', content, version: version.current })
          version.current = saved.version
          const v = await write.mutateAsync({ kind: 'sign', version: version.current })
          version.current = v.version
          loaded.current = contentOf(v)
          setState('saved')
          void message.success(t('visit.signed'))
        } catch (e) {
          onWriteError(e)
        }
      },
    })
  }

  const amend = () =>
    askReason({
      title: t('visit.amendTitle'),
      label: t('visit.amendReason'),
      okText: t('visit.saveAmendment'),
      cancelText: t('appointments.cancelButton'),
      onOk: async (reason) => {
        try {
          const v = await write.mutateAsync({ kind: 'amend', content: values(), version: version.current, reason })
          version.current = v.version
          loaded.current = contentOf(v)
          setAmending(false)
          void message.success(t('visit.amended'))
        } catch (e) {
          onWriteError(e)
        }
      },
    })

  /** Removes a row of a list; the removal is saved like any other change. */
  const removeRow = (remove: (name: number) => void, name: number) => () => {
    remove(name)
    changed()
  }

  const p = patient.data
  const watched = Form.useWatch('vitals', form)
  const currentBmi = bmi({ weight: watched?.weight ?? null, height: watched?.height ?? null })
  const dateItem = { getValueProps: (v: string) => ({ value: v ? dayjs(v) : null }), normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '') }
  // Whoever may not order tests (no catalogue) still reads the ordered ones by name.
  const testOptions = labTests.data
    ? (['lab', 'imaging'] as const).map((kind) => ({
        label: t(`visit.testKinds.${kind}`),
        title: kind,
        options: labTests.data.filter((x) => x.kind === kind).map((x) => ({ value: x.code, label: x.label })),
      }))
    : [{ label: t('visit.sections.orders'), title: 'ordered', options: visit.orders.map((o) => ({ value: o.code, label: o.label || o.code })) }]

  const stateText: Record<SaveState, string> = {
    idle: mode === 'read' ? '' : t('visit.stateIdle'),
    pending: t('visit.statePending'),
    saving: t('visit.stateSaving'),
    saved: savedAt ? t('visit.stateSaved', { time: dayjs(savedAt).format('HH:mm:ss') }) : '',
    invalid: t('visit.stateInvalid'),
    conflict: t('visit.stateConflict'),
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {p && <PatientBanner patient={{ ...a.patient, ...p.history }} />}
      <Card>
        <Flex justify="space-between" wrap gap={12} align="flex-start">
          <Space orientation="vertical" size={4}>
            <Typography.Title level={3} style={{ margin: 0 }}>
              <Link to={chartOf(a)}>{fullName(a.patient)}</Link>{' '}
              <Typography.Text type="secondary" style={{ fontSize: 16 }}>
                {a.patient.mrn}
              </Typography.Text>
            </Typography.Title>
            <Space wrap size={8}>
              <StatusTag status={a.status} />
              {signed ? <Tag color="cyan" icon={<CheckCircleOutlined aria-hidden />}>{t('visit.signedBy', { name: visit.signed_by, time: formatDayTime(visit.signed_at ?? '') })}</Tag> : visit.version > 0 && <Tag>{t('visit.draft')}</Tag>}
              {visit.amendments.length > 0 && <Tag color="orange">{t('visit.amendedTag', { count: visit.amendments.length })}</Tag>}
            </Space>
          </Space>
          <Space wrap>
            {stateText[state] && (
              <Typography.Text type={state === 'invalid' || state === 'conflict' ? 'danger' : 'secondary'} role="status">
                {stateText[state]}
              </Typography.Text>
            )}
            {a.status === 'arrived' && canDiagnose && (
              <Button type="primary" loading={start.isPending} onClick={() => start.mutate({ a, action: 'start' }, { onSuccess: () => void message.success(t('appointments.done.start')) })}>
                {t('appointments.actions.start')}
              </Button>
            )}
            {mode === 'draft' && (
              <Button type="primary" onClick={sign} loading={write.isPending && state !== 'saving'}>
                {t('visit.sign')}
              </Button>
            )}
            {signed && canDiagnose && !amending && (
              <Button icon={<EditOutlined aria-hidden />} onClick={() => setAmending(true)}>
                {t('visit.amend')}
              </Button>
            )}
            {mode === 'amend' && (
              <>
                <Button
                  onClick={() => {
                    form.setFieldsValue(loaded.current)
                    setAmending(false)
                  }}
                >
                  {t('visit.discard')}
                </Button>
                <Button type="primary" onClick={amend}>
                  {t('visit.saveAmendment')}
                </Button>
              </>
            )}
          </Space>
        </Flex>
        <Descriptions
          size="small"
          style={{ marginTop: 12 }}
          column={{ xs: 1, sm: 2, lg: 4 }}
          items={[
            { key: 'when', label: t('appointments.time'), children: `${formatDayTime(a.starts_at)} · ${t('appointments.minutes', { count: a.duration_minutes })}` },
            { key: 'doctor', label: t('appointments.doctor'), children: a.doctor_name },
            { key: 'type', label: t('appointments.type'), children: t(`appointments.types.${a.type}`) },
            { key: 'reason', label: t('appointments.reason'), children: a.reason || '—' },
          ]}
        />
      </Card>
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
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<VisitContent> form={form} name="visit" layout="vertical" className="emr-record" initialValues={initial} onValuesChange={changed}>
            <Card title={t('visit.sections.vitals')} style={{ marginBottom: 16 }}>
              <Row gutter={12}>
                {VITAL_FIELDS.map((f) => (
                  <Col xs={12} md={6} key={f.key}>
                    <Form.Item name={['vitals', f.key]} label={t(`visit.vitals.${f.key}`)}>
                      <InputNumber style={{ width: '100%' }} min={0} step={f.step} suffix={t(`visit.units.${f.unit}`)} controls={false} disabled={vitalsRo} inputMode="decimal" />
                    </Form.Item>
                  </Col>
                ))}
                <Col xs={12} md={6}>
                  <Form.Item label={t('visit.vitals.bmi')}>
                    <Typography.Text strong aria-label={t('visit.vitals.bmi')} style={{ lineHeight: '32px' }}>
                      {currentBmi ?? '—'} {currentBmi !== null && <Typography.Text type="secondary">{t('visit.units.bmi')}</Typography.Text>}
                    </Typography.Text>
                  </Form.Item>
                </Col>
              </Row>
            </Card>
            <Card title={t('visit.sections.findings')} style={{ marginBottom: 16 }}>
              <Form.Item name="chief_complaint" label={t('visit.fields.chief_complaint')}>
                <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} maxLength={4000} disabled={ro} />
              </Form.Item>
              <Form.Item name="present_illness" label={t('visit.fields.present_illness')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={ro} />
              </Form.Item>
              <Form.Item name="examination" label={t('visit.fields.examination')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={ro} />
              </Form.Item>
            </Card>
            <Card title={t('visit.sections.diagnoses')} style={{ marginBottom: 16 }}>
              <Form.List name="diagnoses">
                {(fields, { add, remove }) => (
                  <>
                    {fields.length === 0 && <Typography.Paragraph type="secondary">{t('visit.noDiagnoses')}</Typography.Paragraph>}
                    {fields.map((f, i) => (
                      <Row gutter={8} key={f.key} align="top">
                        <Col xs={24} md={10}>
                          <Form.Item name={[f.name, 'code']} label={i === 0 ? t('visit.fields.code') : undefined}>
                            <CodeSelect disabled={ro} initialLabel={labels[form.getFieldValue(['diagnoses', f.name, 'code'])]} />
                          </Form.Item>
                        </Col>
                        <Col xs={24} md={8}>
                          <Form.Item name={[f.name, 'text']} label={i === 0 ? t('visit.fields.text') : undefined}>
                            <Input placeholder={t('visit.textPlaceholder')} aria-label={t('visit.fields.text')} maxLength={300} disabled={ro} />
                          </Form.Item>
                        </Col>
                        <Col xs={16} md={4} style={{ paddingTop: i === 0 ? 30 : 4 }}>
                          <Form.Item name={[f.name, 'primary']} valuePropName="checked" noStyle>
                            <Checkbox
                              disabled={ro}
                              onChange={(e) => {
                                if (!e.target.checked) return
                                // One primary diagnosis: choosing one clears the others.
                                fields.forEach((o) => o.name !== f.name && form.setFieldValue(['diagnoses', o.name, 'primary'], false))
                              }}
                            >
                              {t('visit.fields.primary')}
                            </Checkbox>
                          </Form.Item>
                        </Col>
                        <Col xs={8} md={2} style={{ paddingTop: i === 0 ? 30 : 0, textAlign: 'end' }}>
                          {!ro && <RemoveButton label={t('visit.removeDiagnosis')} onClick={removeRow(remove, f.name)} />}
                        </Col>
                      </Row>
                    ))}
                    {!ro && (
                      <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ code: '', text: '', primary: fields.length === 0 })}>
                        {t('visit.addDiagnosis')}
                      </Button>
                    )}
                  </>
                )}
              </Form.List>
            </Card>
            <Card title={t('visit.sections.orders')} style={{ marginBottom: 16 }}>
              <Form.List name="orders">
                {(fields, { add, remove }) => (
                  <>
                    {fields.length === 0 && <Typography.Paragraph type="secondary">{t('visit.noOrders')}</Typography.Paragraph>}
                    {fields.map((f) => (
                      <Row gutter={8} key={f.key}>
                        <Col xs={24} md={11}>
                          <Form.Item name={[f.name, 'code']}>
                            <Select showSearch={{ optionFilterProp: 'label' }} options={testOptions} placeholder={t('visit.testPlaceholder')} aria-label={t('visit.test')} disabled={ro} />
                          </Form.Item>
                        </Col>
                        <Col xs={20} md={11}>
                          <Form.Item name={[f.name, 'note']}>
                            <Input placeholder={t('visit.orderNote')} aria-label={t('visit.orderNote')} maxLength={300} disabled={ro} />
                          </Form.Item>
                        </Col>
                        <Col xs={4} md={2} style={{ textAlign: 'end' }}>
                          {!ro && <RemoveButton label={t('visit.removeOrder')} onClick={removeRow(remove, f.name)} />}
                        </Col>
                      </Row>
                    ))}
                    {!ro && (
                      <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ code: undefined, note: '' })}>
                        {t('visit.addOrder')}
                      </Button>
                    )}
                  </>
                )}
              </Form.List>
            </Card>
            <Card title={t('visit.sections.plan')}>
              <Form.Item name="plan" label={t('visit.fields.plan')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={ro} />
              </Form.Item>
              <Form.Item name="follow_up_date" label={t('visit.fields.follow_up_date')} extra={t('visit.followUpHelp')} {...dateItem}>
                <DatePicker format={dateFormat()} disabled={ro} disabledDate={(d) => !d.isAfter(dayjs(a.day), 'day')} />
              </Form.Item>
              {visit.follow_up && (
                <Alert
                  type="success"
                  showIcon
                  title={t('visit.followUpBooked', { time: formatDayTime(visit.follow_up.starts_at), status: t(`appointments.status.${visit.follow_up.status}`) })}
                />
              )}
            </Card>
          </Form>
        </Col>
        <Col xs={24} xl={8}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {visit.amendments.length > 0 && (
              <Card title={t('visit.sections.amendments')}>
                <Collapse
                  size="small"
                  items={visit.amendments.map((m) => ({
                    key: m.id,
                    label: `${formatDayTime(m.amended_at)} · ${m.amended_by}: ${m.reason}`,
                    children: (
                      <Descriptions
                        size="small"
                        column={1}
                        title={t('visit.before')}
                        items={[
                          { key: 'cc', label: t('visit.fields.chief_complaint'), children: m.previous.chief_complaint || '—' },
                          { key: 'dx', label: t('visit.sections.diagnoses'), children: m.previous.diagnoses.map((d) => (d.code ? `${d.code} ${d.label ?? ''}` : d.text) + (d.primary ? ` (${t('history.primary')})` : '')).join('; ') || '—' },
                          { key: 'plan', label: t('visit.fields.plan'), children: m.previous.plan || '—' },
                        ]}
                      />
                    ),
                  }))}
                />
              </Card>
            )}
            <Slot name="visitPrescriptions" appointmentId={a.id} closed={a.status === 'cancelled' || a.status === 'no-show'} />
            <Card title={t('visit.sections.previous')}>
              <VisitHistory patientId={a.patient_id} before={{ id: a.id, startsAt: a.starts_at }} />
            </Card>
          </Space>
        </Col>
      </Row>
    </Space>
  )
}
