import { DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Checkbox, Col, Empty, Flex, Form, Input, Result, Row, Select, Space, Spin, Switch, Typography } from 'antd'
import type { TextAreaRef } from 'antd/es/input/TextArea'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { ApiError } from '../../lib/api'
import { currentLanguage, LANGUAGE_NAMES, LANGUAGE_ORDER } from '../../lib/i18n'
import { useDebounced } from '../../lib/debounce'
import { useQuery } from '@tanstack/react-query'
import { patientVisitsQuery } from '../../lib/queries/patientVisits'
import { formatDayTime } from '../../lib/time'
import { PatientSelect } from '../../components/PatientSelect'
import styles from '../../components/print/print.module.css'
import { useTemplate } from './api/getTemplate'
import { usePlaceholders } from './api/listPlaceholders'
import { usePreview } from './api/previewTemplate'
import { useSaveTemplate } from './api/saveTemplate'
import { FIELD_TYPES, KINDS, PAPERS, type DocumentField, type DocumentTemplate } from './api/types'
import { DocumentContent } from './components/DocumentContent'

type Values = Omit<DocumentTemplate, 'id' | 'updated_at' | 'version'>

const GROUPS = ['patient', 'visit', 'doctor', 'clinic', 'document'] as const

/** Writes or changes a template: its body with placeholders inserted at the cursor, its fields, and a preview filled for a chosen visit. */
export default function TemplateEditorPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const param = useParams().id
  const id = param === 'new' ? undefined : Number(param)
  const existing = useTemplate(id)
  const placeholders = usePlaceholders()
  const save = useSaveTemplate()
  const [form] = Form.useForm<Values>()
  const body = useRef<TextAreaRef>(null)
  const [problem, setProblem] = useState<string>()
  const [patientId, setPatientId] = useState<number>()
  const [visitId, setVisitId] = useState<number>()
  const visits = useQuery({ ...patientVisitsQuery({ patient_id: patientId ?? 0, page: 1, per_page: 20 }), enabled: !!patientId })

  useEffect(() => {
    if (existing.data) form.setFieldsValue(existing.data)
  }, [existing.data, form])

  const watched = Form.useWatch([], form) as Values | undefined
  const draft = useDebounced({ body: watched?.body ?? '', fields: (watched?.fields ?? []).filter((f) => f?.key), language: watched?.language ?? 'en' }, 500)
  const preview = usePreview(patientId ? { ...draft, patient_id: patientId, appointment_id: visitId ?? null } : undefined)
  const declared = useMemo(() => (watched?.fields ?? []).filter((f): f is DocumentField => !!f?.key), [watched?.fields])
  // A period (a number field X_days and a date field X_from) also prints its last day: field.X_until.
  const periods = declared.filter((f) => f.type === 'number' && f.key.endsWith('_days') && declared.some((d) => d.type === 'date' && d.key === f.key.replace(/_days$/, '_from')))

  /** Puts text at the body's cursor (replacing a selection) and leaves the cursor after it. */
  const insert = (text: string) => {
    const el = body.current?.resizableTextArea?.textArea
    const value: string = form.getFieldValue('body') ?? ''
    const start = el?.selectionStart ?? value.length
    const end = el?.selectionEnd ?? value.length
    form.setFieldValue('body', value.slice(0, start) + text + value.slice(end))
    requestAnimationFrame(() => {
      el?.focus()
      el?.setSelectionRange(start + text.length, start + text.length)
    })
  }

  const submit = async (values: Values) => {
    setProblem(undefined)
    try {
      const saved = await save.mutateAsync({ ...values, fields: values.fields ?? [], id, version: existing.data?.version ?? 0 } as DocumentTemplate)
      message.success(t('documents.templateSaved'))
      if (!id) navigate(`/forms/templates/${saved.id}`, { replace: true })
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      setProblem(e.message)
      form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors })))
    }
  }

  if (id !== undefined && existing.isLoading) return <Spin />
  if (id !== undefined && !existing.data) return <Result status="404" title={t('documents.templateNotFound')} />

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      name="template"
      initialValues={{ kind: 'custom', language: currentLanguage(), paper: 'a5-portrait', active: true, body: '', fields: [] }}
      onFinish={(v) => void submit(v)}
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card
            title={id ? <span lang={existing.data?.language}>{existing.data?.name}</span> : t('documents.newTemplate')}
            extra={
              <Button type="primary" htmlType="submit" icon={<SaveOutlined aria-hidden />} loading={save.isPending}>
                {t('documents.save')}
              </Button>
            }
          >
            {problem && <Alert type="error" showIcon title={problem} role="alert" style={{ marginBottom: 12 }} />}
            <Row gutter={12}>
              <Col xs={24} md={12}>
                <Form.Item name="name" label={t('documents.name')} rules={[{ required: true, message: t('validation.required') }]}>
                  <Input maxLength={120} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="kind" label={t('documents.kind')}>
                  <Select options={KINDS.map((k) => ({ value: k, label: t(`documents.kinds.${k}`) }))} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8}>
                <Form.Item name="language" label={t('documents.language')}>
                  <Select options={LANGUAGE_ORDER.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
                </Form.Item>
              </Col>
              <Col xs={12} md={8}>
                <Form.Item name="paper" label={t('documents.paper')}>
                  <Select options={PAPERS.map((p) => ({ value: p, label: t(`documents.papers.${p}`) }))} />
                </Form.Item>
              </Col>
              <Col xs={24} md={8}>
                <Form.Item name="active" label={t('documents.inUse')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="body" label={t('documents.body')} rules={[{ required: true, message: t('validation.required') }]} extra={t('documents.syntax')}>
              <Input.TextArea ref={body} autoSize={{ minRows: 12, maxRows: 30 }} spellCheck={false} style={{ fontFamily: 'ui-monospace, monospace' }} />
            </Form.Item>
            <Typography.Title level={5}>{t('documents.fields')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('documents.fieldsHint')}</Typography.Paragraph>
            <Form.List name="fields">
              {(items, { add, remove }) => (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {items.map(({ key, name }) => (
                    <Flex key={key} wrap gap={8} align="start">
                      <Form.Item name={[name, 'key']} rules={[{ required: true, message: t('validation.required') }]} style={{ marginBottom: 0, width: 120 }}>
                        <Input placeholder={t('documents.fieldKey')} aria-label={t('documents.fieldKey')} maxLength={40} />
                      </Form.Item>
                      <Form.Item name={[name, 'label']} rules={[{ required: true, message: t('validation.required') }]} style={{ marginBottom: 0, flex: 1, minWidth: 120 }}>
                        <Input placeholder={t('documents.fieldLabel')} aria-label={t('documents.fieldLabel')} maxLength={100} />
                      </Form.Item>
                      <Form.Item name={[name, 'type']} style={{ marginBottom: 0, width: 130 }}>
                        <Select aria-label={t('documents.fieldType')} options={FIELD_TYPES.map((ft) => ({ value: ft, label: t(`documents.fieldTypes.${ft}`) }))} />
                      </Form.Item>
                      <Form.Item name={[name, 'required']} valuePropName="checked" style={{ marginBottom: 0 }}>
                        <Checkbox>{t('documents.fieldRequired')}</Checkbox>
                      </Form.Item>
                      <Button aria-label={t('documents.removeField')} icon={<DeleteOutlined aria-hidden />} onClick={() => remove(name)} />
                    </Flex>
                  ))}
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ key: '', label: '', type: 'text', required: false })}>
                    {t('documents.addField')}
                  </Button>
                </Space>
              )}
            </Form.List>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Card title={t('documents.placeholdersTitle')} size="small">
              <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
                {t('documents.placeholdersHint')}
              </Typography.Paragraph>
              {GROUPS.map((g) => (
                <div key={g} style={{ marginBottom: 8 }}>
                  <Typography.Text strong>{t(`documents.groups.${g}`)}</Typography.Text>
                  <Flex wrap gap={4} style={{ marginTop: 4 }}>
                    {(placeholders.data?.placeholders ?? [])
                      .filter((p) => p.startsWith(`${g}.`) || (g === 'document' && p === 'today'))
                      .map((p) => (
                        <Button key={p} size="small" onClick={() => insert(`{{${p}}}`)} title={`{{${p}}}`}>
                          {t(`documents.placeholders.${p.replace('.', '_')}`)}
                        </Button>
                      ))}
                  </Flex>
                </div>
              ))}
              {declared.length > 0 && (
                <div>
                  <Typography.Text strong>{t('documents.groups.fields')}</Typography.Text>
                  <Flex wrap gap={4} style={{ marginTop: 4 }}>
                    {declared.map((f) => (
                      <Button key={f.key} size="small" onClick={() => insert(`{{field.${f.key}}}`)} title={`{{field.${f.key}}}`} lang={watched?.language}>
                        {f.label || f.key}
                      </Button>
                    ))}
                    {periods.map((f) => {
                      const key = `field.${f.key.replace(/_days$/, '_until')}`
                      return (
                        <Button key={key} size="small" onClick={() => insert(`{{${key}}}`)} title={`{{${key}}}`}>
                          {t('documents.periodUntil', { field: f.label || f.key })}
                        </Button>
                      )
                    })}
                  </Flex>
                </div>
              )}
            </Card>
            <Card title={t('documents.preview')} size="small">
              <Space orientation="vertical" style={{ width: '100%' }}>
                <PatientSelect value={patientId} onChange={(p) => (setPatientId(p), setVisitId(undefined))} placeholder={t('documents.previewPatient')} ariaLabel={t('documents.previewPatient')} style={{ width: '100%' }} />
                {/* The visit is chosen once the patient is. */}
                {patientId && (
                  <Select
                    allowClear
                    value={visitId}
                    onChange={setVisitId}
                    placeholder={t('documents.previewVisit')}
                    aria-label={t('documents.previewVisit')}
                    style={{ width: '100%' }}
                    options={(visits.data?.data ?? []).map((a) => ({ value: a.id, label: `${formatDayTime(a.starts_at)} — ${a.doctor_name}` }))}
                  />
                )}
                <div className={styles.sheet} style={{ boxShadow: 'none', border: '1px solid #d9d9d9', minHeight: 200 }} lang={watched?.language} data-testid="template-preview">
                  {!patientId ? (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('documents.previewHint')} />
                  ) : preview.error ? (
                    <Alert type="error" showIcon title={preview.error instanceof ApiError ? preview.error.message : String(preview.error)} />
                  ) : preview.data ? (
                    <DocumentContent blocks={preview.data} />
                  ) : (
                    <Spin />
                  )}
                </div>
              </Space>
            </Card>
          </Space>
        </Col>
      </Row>
    </Form>
  )
}
