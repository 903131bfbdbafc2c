import { App, Alert, Col, Empty, Form, Input, InputNumber, Modal, Row, Select, Spin } from 'antd'
import dayjs from 'dayjs'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { ApiError } from '../../../lib/api'
import { currentLanguage, LANGUAGE_NAMES, type Language } from '../../../lib/i18n'
import { useDebounced } from '../../../lib/debounce'
import { useIssueDocument } from '../api/issueDocument'
import { usePreview } from '../api/previewTemplate'
import { useTemplates } from '../api/templates'
import { printPath, type DocumentField, type DocumentTemplate } from '../api/types'
import { DocumentContent } from './DocumentContent'
import { NoPublicAddress } from './NoPublicAddress'
import styles from '../../../components/print/print.module.css'
import { DateInput } from '../../../components/DateInput'

interface Props {
  patientId: number
  /** The visit it is issued from; none for a document not tied to a visit. */
  appointmentId?: number
  open: boolean
  onClose(): void
}

/** The input a declared field takes. */
function FieldInput({ field }: { field: DocumentField }) {
  const { t } = useTranslation()
  const rules = field.required ? [{ required: true, message: t('validation.required') }] : []
  const name = ['fields', field.key]
  switch (field.type) {
    case 'long_text':
      return (
        <Form.Item name={name} label={field.label} rules={rules}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={4000} />
        </Form.Item>
      )
    case 'number':
      return (
        <Form.Item name={name} label={field.label} rules={rules}>
          <InputNumber min={0} style={{ width: '100%' }} />
        </Form.Item>
      )
    case 'date':
      return (
        <Form.Item name={name} label={field.label} rules={rules}>
          <DateInput style={{ width: '100%' }} />
        </Form.Item>
      )
    default:
      return (
        <Form.Item name={name} label={field.label} rules={rules}>
          <Input maxLength={300} />
        </Form.Item>
      )
  }
}

/** The fields' values as the API takes them: text, dates as year-month-day. */
function values(raw: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (v === undefined || v === null || v === '') continue
    out[k] = dayjs.isDayjs(v) ? v.format('YYYY-MM-DD') : String(v)
  }
  return out
}

/** Issue a document: pick a template, fill its fields, see it filled in, then issue and print. */
export function IssueDocument({ patientId, appointmentId, open, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const [form] = Form.useForm()
  const templates = useTemplates()
  const issue = useIssueDocument()
  const [templateId, setTemplateId] = useState<number>()
  const [problem, setProblem] = useState<string>()
  const raw = Form.useWatch('fields', form) as Record<string, unknown> | undefined
  const filled = useDebounced(values(raw), 400)
  const lang = currentLanguage()
  // A visit's templates first in the interface's language; without a visit, those that need none.
  const usable = useMemo(
    () =>
      (templates.data ?? [])
        .filter((tp) => appointmentId !== undefined || !tp.needs_visit)
        .sort((a, b) => Number(b.language === lang) - Number(a.language === lang)),
    [templates.data, appointmentId, lang],
  )
  const chosen: DocumentTemplate | undefined = usable.find((tp) => tp.id === templateId)
  const preview = usePreview(
    chosen && open ? { body: chosen.body, fields: chosen.fields ?? [], language: chosen.language, patient_id: patientId, appointment_id: appointmentId ?? null, values: filled } : undefined,
  )

  const submit = async () => {
    if (!chosen) return
    let raw: { fields?: Record<string, unknown> }
    try {
      raw = (await form.validateFields()) as typeof raw
    } catch {
      return
    }
    setProblem(undefined)
    try {
      const d = await issue.mutateAsync({ template_id: chosen.id!, patient_id: patientId, appointment_id: appointmentId ?? null, fields: values(raw.fields) })
      message.success(t('documents.issued', { number: d.number }))
      onClose()
      form.resetFields()
      setTemplateId(undefined)
      navigate(`${printPath(d)}?print=1`)
    } catch (e) {
      if (e instanceof ApiError) {
        setProblem(e.display)
        form.setFields(Object.entries(e.fields ?? {}).map(([name, errors]) => ({ name: name.split('.'), errors })))
      }
    }
  }

  return (
    <Modal
      open={open}
      title={t('documents.issueTitle')}
      width={980}
      okText={t('documents.issueAndPrint')}
      cancelText={t('documents.close')}
      okButtonProps={{ disabled: !chosen, loading: issue.isPending }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} md={10}>
          <Form form={form} layout="vertical" name="issue-document">
            <Form.Item label={t('documents.template')} required>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                value={templateId}
                onChange={(id) => (setTemplateId(id), form.resetFields())}
                loading={templates.isLoading}
                placeholder={t('documents.chooseTemplate')}
                aria-label={t('documents.template')}
                options={usable.map((tp) => ({ value: tp.id, label: `${tp.name} — ${LANGUAGE_NAMES[tp.language as Language]}` }))}
              />
            </Form.Item>
            {chosen?.fields?.map((f) => <FieldInput key={f.key} field={f} />)}
          </Form>
          {chosen && <NoPublicAddress />}
          {problem && <Alert type="error" showIcon title={problem} role="alert" />}
        </Col>
        <Col xs={24} md={14}>
          <div aria-label={t('documents.preview')} role="region" className={styles.sheet} style={{ minHeight: 240, boxShadow: 'none', border: '1px solid #d9d9d9' }} lang={chosen?.language}>
            {!chosen ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('documents.chooseTemplate')} />
            ) : preview.error ? (
              <Alert type="error" showIcon title={preview.error instanceof ApiError ? preview.error.display : String(preview.error)} />
            ) : preview.data ? (
              <Spin spinning={preview.isFetching} size="small">
                <DocumentContent blocks={preview.data} />
              </Spin>
            ) : (
              <Spin />
            )}
          </div>
        </Col>
      </Row>
    </Modal>
  )
}
