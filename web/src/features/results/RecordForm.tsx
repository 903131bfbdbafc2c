// Recording an order's results: one row per analyte of the test — a number with its unit
// (any unit the analyte may be entered in), a coded answer, or a report's text — and, when
// the lab printed its own range, that range. Preliminary or final; a change to a final
// result is a correction and asks why.
import { Alert, App, Button, Card, Col, Form, Input, Row, Select, Space } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAskReason } from '../../components/askReason'
import { ApiError } from '../../lib/api'
import { useTestResults } from './api/getTestResults'
import { useRecord, type ResultInput } from './api/recordResults'
import type { Analyte, LabOrder } from './api/types'
import { answerLabel, criticalFor, criticalText, monthsOld, rangeFor, rangeText, unitLabel } from './format'
import { FieldNumberNote } from '../../components/FieldNumberNote'

interface Row {
  value?: string
  unit?: string
  answer?: string
  text?: string
  lab_low?: string
  lab_high?: string
}

type Values = Record<string, Row>

/** The typed rows as the server takes them, with the analyte of each sent row. */
export function toInputs(analytes: Analyte[], values: Values): ResultInput[] {
  const out: ResultInput[] = []
  for (const a of analytes) {
    const row = values[a.code] ?? {}
    if (a.type === 'numeric' && row.value?.trim()) {
      out.push({ analyte: a.code, value: row.value.trim(), unit: row.unit ?? a.unit, lab_low: row.lab_low?.trim() || undefined, lab_high: row.lab_high?.trim() || undefined })
    } else if (a.type === 'coded' && row.answer) {
      out.push({ analyte: a.code, answer: row.answer })
    } else if (a.type === 'text' && row.text?.trim()) {
      out.push({ analyte: a.code, text: row.text.trim() })
    }
  }
  return out
}

/** The form's starting values: the current results, as typed. */
function initialValues(order: LabOrder, lang: string): Values {
  const out: Values = {}
  for (const r of order.results) {
    const typed = lang === 'ru' || lang === 'vi' ? r.entered.replace('.', ',') : r.entered
    const sign = ({ '<': '<', '<=': '≤', '>': '>', '>=': '≥' } as Record<string, string>)[r.comparator ?? ''] ?? ''
    out[r.analyte] = { value: sign + typed, unit: r.entered_unit || r.unit, answer: r.answer, text: r.text }
  }
  return out
}

/** The patient whose ranges the form shows as hints (sex, birth date). */
export interface RangeSubject {
  sex: string
  birth_date: string
}

export function RecordForm({ order, patient, onDone }: { order: LabOrder; patient?: RangeSubject; onDone?: () => void }) {
  const { t, i18n } = useTranslation()
  const { message, modal } = App.useApp()
  const askReason = useAskReason()
  const test = useTestResults(order.test)
  const record = useRecord(order.id)
  const [form] = Form.useForm<Values>()
  const [problem, setProblem] = useState('')
  const correcting = order.status === 'final' || order.status === 'reviewed'
  const initial = useMemo(() => initialValues(order, i18n.language), [order, i18n.language])
  const analytes = test.data?.analytes ?? []
  const [open, setOpen] = useState(!correcting)
  // The laboratory that performed the tests: empty for the clinic's own, as the results last said.
  const [performer, setPerformer] = useState(() => order.results[0]?.performer ?? '')

  const submit = async (final: boolean, reason?: string) => {
    setProblem('')
    const values = form.getFieldsValue(true) as Values
    const results = toInputs(analytes, values)
    form.setFields(analytes.flatMap((a) => (['value', 'unit', 'answer', 'text', 'lab_low', 'lab_high'] as const).map((f) => ({ name: [a.code, f] as never, errors: [] }))))
    if (results.length === 0) {
      setProblem(t('results.enterOne'))
      return
    }
    try {
      const out = await record.mutateAsync({ version: order.version, final, reason, performer: performer.trim(), results })
      // A critical value: whoever typed it is told at once that the doctor is alerted, and when to call.
      if (out.alerts > 0)
        modal.warning({
          title: t('results.savedCritical', { count: out.alerts }),
          content: t('results.criticalRecordedBody', { doctor: order.ordered_by_name || t('results.orderingDoctor') }),
        })
      else void message.success(t('results.saved'))
      // A changed value withdrew critical alerts: whoever typed it is told that those who acted on them hear of it.
      if (out.withdrawn > 0) void message.warning(t('results.withdrawnOnSave', { count: out.withdrawn }))
      onDone?.()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const fields = Object.entries(e.fields)
      for (const [name, errors] of fields) {
        const [head, index, field] = name.split('.')
        const sent = head === 'results' ? results[Number(index)] : undefined
        if (sent && field) form.setFields([{ name: [sent.analyte, field] as never, errors }])
      }
      // A value replacing a critical preliminary one someone was alerted to needs the reason it differs (asked, then sent again).
      if (!correcting && reason === undefined && e.fields.reason) {
        askReason({
          title: t('results.supersedeTitle'),
          label: t('results.supersedeReason'),
          okText: final ? t('results.saveFinal') : t('results.savePreliminary'),
          cancelText: t('results.cancel'),
          onOk: (why) => submit(final, why),
        })
        return
      }
      if (!fields.some(([name]) => name.startsWith('results.'))) setProblem(e.display)
    }
  }

  const save = (final: boolean) =>
    correcting
      ? askReason({
          title: t('results.correctTitle'),
          label: t('results.correctReason'),
          okText: t('results.saveCorrection'),
          cancelText: t('results.cancel'),
          onOk: (reason) => submit(true, reason),
        })
      : void submit(final)

  if (!open) {
    return (
      <Card>
        <Button onClick={() => setOpen(true)} data-testid="correct-result">
          {t('results.correctTitle')}
        </Button>
      </Card>
    )
  }
  return (
    <Card title={correcting ? t('results.correctTitle') : t('results.recordTitle')} data-testid="record-results">
      {correcting && <Alert type="warning" showIcon title={t('results.correctHint')} style={{ marginBottom: 16 }} />}
      {problem && <Alert type="error" showIcon role="alert" title={problem} style={{ marginBottom: 16 }} />}
      <Form<Values> form={form} layout="vertical" initialValues={initial} disabled={record.isPending} className="emr-record">
        {analytes.map((a) => (
          <AnalyteRow key={a.code} analyte={a} patient={patient} />
        ))}
        <Form.Item label={t('results.performer')} extra={t('results.performerHint')}>
          <Input
            value={performer}
            onChange={(e) => setPerformer(e.target.value)}
            placeholder={t('results.performerClinic')}
            aria-label={t('results.performer')}
            maxLength={200}
            style={{ maxWidth: 420 }}
            data-testid="performer-input"
          />
        </Form.Item>
      </Form>
      <Space wrap>
        {!correcting && (
          <Button onClick={() => save(false)} loading={record.isPending} data-testid="save-preliminary">
            {t('results.savePreliminary')}
          </Button>
        )}
        <Button type="primary" onClick={() => save(true)} loading={record.isPending} data-testid="save-final">
          {correcting ? t('results.saveCorrection') : t('results.saveFinal')}
        </Button>
      </Space>
    </Card>
  )
}

function AnalyteRow({ analyte: a, patient }: { analyte: Analyte; patient?: RangeSubject }) {
  const { t, i18n } = useTranslation()
  const [showLab, setShowLab] = useState(false)
  const [today] = useState(() => new Date())
  const label = a.label || a.code
  const range = patient ? rangeFor(a.ranges, patient.sex, monthsOld(patient.birth_date, today)) : undefined
  const hint = range ? rangeText(t, { low: range.low?.toString() ?? null, high: range.high?.toString() ?? null }, a.unit, i18n.language) : ''
  // The analyte's critical limits for the age apply whatever range does (or none): a value at
  // or beyond them alerts the ordering doctor, so whoever types it sees them first.
  const critical = patient ? criticalFor(a.critical ?? [], monthsOld(patient.birth_date, today)) : undefined
  const unit = (Form.useWatch([a.code, 'unit']) as string | undefined) ?? a.unit // the number typed is said back in it
  if (a.type === 'coded') {
    return (
      <Form.Item name={[a.code, 'answer']} label={label}>
        <Select allowClear aria-label={label} options={(a.answers ?? []).map((x) => ({ value: x.code, label: answerLabel(t, x.code) }))} style={{ maxWidth: 280 }} />
      </Form.Item>
    )
  }
  if (a.type === 'text') {
    return (
      <Form.Item name={[a.code, 'text']} label={label}>
        <Input.TextArea aria-label={label} autoSize={{ minRows: 4, maxRows: 16 }} maxLength={8000} />
      </Form.Item>
    )
  }
  const units = [a.unit, ...a.units.map((u) => u.unit)]
  return (
    <Row gutter={8} align="bottom">
      <Col xs={14} sm={10} md={8}>
        <Form.Item name={[a.code, 'value']} label={label} extra={<>{hint ? t('results.patientRange', { range: hint }) : null}{range?.anySex ? ` · ${t('results.rangeNotes.any_sex')}` : null}{patient && !range ? t('results.rangeNotes.no_band') : null}{critical ? <div data-testid="patient-critical">{t('results.patientCritical', { limits: criticalText(t, critical, a.unit, i18n.language) })}</div> : null}<FieldNumberNote name={[a.code, 'value']} unit={unitLabel(t, unit)} censored /></>}>
          <Input inputMode="decimal" aria-label={label} autoComplete="off" maxLength={20} />
        </Form.Item>
      </Col>
      <Col xs={10} sm={6} md={5}>
        <Form.Item name={[a.code, 'unit']} label={<span className="visually-hidden">{t('results.unitOf', { analyte: label })}</span>} initialValue={a.unit}>
          <Select
            aria-label={t('results.unitOf', { analyte: label })}
            disabled={units.length === 1}
            options={units.map((u) => ({ value: u, label: unitLabel(t, u) || t('results.noUnit') }))}
          />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8} md={11}>
        {showLab ? (
          <Space align="end" wrap>
            <Form.Item name={[a.code, 'lab_low']} label={t('results.labLow')}>
              <Input inputMode="decimal" aria-label={t('results.labLowOf', { analyte: label })} style={{ width: 110 }} />
            </Form.Item>
            <Form.Item name={[a.code, 'lab_high']} label={t('results.labHigh')}>
              <Input inputMode="decimal" aria-label={t('results.labHighOf', { analyte: label })} style={{ width: 110 }} />
            </Form.Item>
          </Space>
        ) : (
          <Form.Item>
            <Button type="link" onClick={() => setShowLab(true)} aria-label={t('results.useLabRangeOf', { analyte: label })}>
              {t('results.useLabRange')}
            </Button>
          </Form.Item>
        )}
      </Col>
    </Row>
  )
}
