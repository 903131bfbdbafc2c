import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Checkbox, Col, DatePicker, Flex, Form, Input, Radio, Result, Row, Select, Space, Spin, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { ApiError } from '../../lib/api'
import { useOthersPresent } from '../../lib/live'
import { findDuplicates } from './api/findDuplicates'
import { getPatient, usePatient } from './api/getPatient'
import { useSavePatient } from './api/savePatient'
import { ALLERGY_STATUSES, BLOOD_TYPES, chartPath, CHRONIC, CIVIL_STATUSES, emptyPatient, FAMILY, fullName, SEVERITIES, SEXES, SOCIAL, type Patient, type PatientInput, type PatientSummary } from './api/types'
import { mergeMine } from './merge'
import compare from './compare.module.css'
import { useClearable } from '../../components/clearable'
import { dateFormat } from '../../lib/time'

const inputOf = (p: Patient): PatientInput => {
  const { id: _id, mrn: _mrn, has_photo: _h, archived: _a, archived_at: _aa, archive_reason: _r, created_at: _c, updated_at: _u, version: _v, ...input } = p
  return input
}

/**
 * Enter confirms a date, picks an option or ends a line; it never saves the patient (a
 * half-filled form was registered by Enter in the birth date). Saving is the Save button.
 */
const noEnterSubmit = (e: KeyboardEvent<HTMLFormElement>) => {
  const target = e.target as HTMLElement
  if (e.key === 'Enter' && target.tagName === 'INPUT') e.preventDefault()
}

/** The new entry beside each possible duplicate, the fields that match in bold. */
function DuplicateComparison({ input, twins }: { input: PatientInput; twins: PatientSummary[] }) {
  const { t } = useTranslation()
  const rows: { key: string; label: string; value: (p: PatientInput | PatientSummary) => string; same: (a: string, b: string) => boolean }[] = [
    { key: 'name', label: t('patients.name'), value: (p) => fullName(p), same: (a, b) => fold(a) === fold(b) },
    { key: 'birth_date', label: t('patients.fields.birth_date'), value: (p) => p.birth_date, same: (a, b) => a === b },
    { key: 'sex', label: t('patients.fields.sex'), value: (p) => (p.sex ? t(`patients.sex.${p.sex}`) : ''), same: (a, b) => a === b },
    { key: 'phone', label: t('patients.fields.phone'), value: (p) => p.phone, same: (a, b) => digits(a) !== '' && digits(a) === digits(b) },
  ]
  return (
    <>
      <p>{t('patients.duplicatesText')}</p>
      <div style={{ overflowX: 'auto' }}>
        <table className={compare.table} data-testid="duplicate-comparison">
          <thead>
            <tr>
              <th scope="col">{t('patients.compare.field')}</th>
              <th scope="col">{t('patients.compare.new')}</th>
              {twins.map((p) => (
                <th scope="col" key={p.id}>
                  <Link to={chartPath(p)} target="_blank">
                    {p.mrn}
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                <td>{r.value(input) || '—'}</td>
                {twins.map((p) => {
                  const same = r.same(r.value(input), r.value(p))
                  return (
                    <td key={p.id} className={same ? compare.same : undefined}>
                      {r.value(p) || '—'}
                      {same && <span className={compare.mark}> ({t('patients.compare.same')})</span>}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p style={{ marginTop: 12 }}>{t('patients.compare.confirm')}</p>
    </>
  )
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/đ/g, 'd').replace(/\s+/g, ' ').trim()
const digits = (s: string) => s.replace(/\D/g, '')

/** /masterfile/patient_form/{id}: "new" registers a patient, a number edits one. */
export default function PatientFormPage() {
  const { t } = useTranslation()
  const params = useParams()
  const id = params.id === 'new' ? undefined : Number(params.id)
  const existing = usePatient(id)
  if (id && existing.isError) return <Result status="404" subTitle={t('patients.notFound')} />
  if (id && !existing.data) return <Spin />
  return <PatientForm key={id ?? 'new'} patient={existing.data} latest={existing.data} />
}

/**
 * patient is what the form opened with; latest is the record as it is now, re-read when
 * someone else saves it (the live push channel refreshes it), so the form can warn.
 */
function PatientForm({ patient, latest }: { patient?: Patient; latest?: Patient }) {
  const clear = useClearable()
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const navigate = useNavigate()
  const id = patient?.id
  const save = useSavePatient(id)
  const [form] = Form.useForm<PatientInput>()
  const allergyStatus = Form.useWatch(['history', 'allergy_status'], form)
  // What the form was loaded with, and its version: the base for saving and for merging.
  const [loaded, setLoaded] = useState<PatientInput>(() => (patient ? inputOf(patient) : emptyPatient()))
  const [version, setVersion] = useState(patient?.version)
  const [conflict, setConflict] = useState(false)
  // Set from the first click until the save ends, so a double click or Enter saves once.
  const [busy, setBusy] = useState(false)
  // Who else has this patient's form open right now (the live connection's presence).
  const others = useOthersPresent(id ? `presence-patient-edit.${id}` : undefined)
  // Someone else saved this patient after the form was loaded: say so before a save fails.
  const changedMeanwhile = !conflict && !busy && latest !== undefined && version !== undefined && latest.version > version

  const opt = (prefix: string, values: string[]) => values.map((v) => ({ value: v, label: t(`patients.${prefix}.${v}`) }))
  const plain = (values: string[]) => values.map((v) => ({ value: v, label: v }))

  const submit = async (values: PatientInput) => {
    if (busy) return
    setBusy(true)
    const input = { ...emptyPatient(), ...form.getFieldsValue(true), ...values } as PatientInput
    let distinctFrom: number[] = []
    if (!id) {
      const twins = await findDuplicates(input).catch(() => [])
      if (twins.length > 0) {
        // Side by side, the fields that match in bold; registering needs the explicit
        // "different person" button (focus starts on Cancel, so Enter does not register).
        const go = await modal.confirm({
          title: t('patients.duplicatesTitle'),
          width: 720,
          autoFocusButton: 'cancel',
          content: <DuplicateComparison input={input} twins={twins} />,
          okText: t('patients.saveAnyway'),
          cancelText: t('patients.cancel'),
        })
        if (!go) {
          setBusy(false)
          return
        }
        distinctFrom = twins.map((p) => p.id)
      }
    }
    save.mutate(
      { input, version, distinctFrom },
      {
        onSettled: () => setBusy(false),
        onSuccess: (p) => {
          if (id) {
            setVersion(p.version)
          } else {
            // This tab stays open for the next registration: empty, so that Save cannot
            // register the same person twice.
            form.resetFields()
          }
          void message.success(t('patients.saved'))
          navigate(chartPath(p))
        },
        onError: (e) => {
          if (!(e instanceof ApiError)) return
          if (e.status === 409 && e.code === 'error.conflict') {
            setConflict(true)
          } else if (e.status === 422 && Object.keys(e.fields).length > 0) {
            form.setFields(
              // The server names fields as paths such as "history.allergies.0.substance".
              Object.entries(e.fields).map(([field, errors]) => ({ name: field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors })),
            )
            void message.error(t('patients.checkFields'))
          } else {
            void message.error(e.display || t('errors.generic'))
          }
        },
      },
    )
  }

  const reloadKeepingMine = async () => {
    const latest = await getPatient(id!)
    const merged = mergeMine(loaded, { ...emptyPatient(), ...form.getFieldsValue(true) } as PatientInput, inputOf(latest))
    setLoaded(inputOf(latest))
    setVersion(latest.version)
    form.setFieldsValue(merged)
    setConflict(false)
    void message.info(t('patients.conflictMerged'))
  }

  const dateItem = { getValueProps: (v: string) => ({ value: v ? dayjs(v) : null }), normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '') }

  return (
    <Form<PatientInput> form={form} name="patient" layout="vertical" initialValues={loaded} onFinish={submit} onKeyDown={noEnterSubmit} scrollToFirstError>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {patient ? `${patient.mrn} — ${fullName(patient)}` : t('patients.new')}
        </Typography.Title>
        <Space>
          <Button onClick={() => navigate(-1)}>{t('patients.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('patients.save')}
          </Button>
        </Space>
      </Flex>
      {others.length > 0 && <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="also-editing" title={t('patients.alsoEditing', { names: others.join(', ') })} />}
      {(conflict || changedMeanwhile) && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(conflict ? 'patients.conflictTitle' : 'patients.changedTitle')}
          description={t(conflict ? 'patients.conflictText' : 'patients.changedText')}
          action={<Button onClick={() => void reloadKeepingMine()}>{t('patients.conflictReload')}</Button>}
          role="alert"
        />
      )}
      <Card title={t('patients.sections.identity')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="last_name" label={t('patients.fields.last_name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 100 }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="first_name" label={t('patients.fields.first_name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }, { max: 100 }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="middle_name" label={t('patients.fields.middle_name')} rules={[{ max: 100 }]}>
              <Input autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="sex" label={t('patients.fields.sex')} rules={[{ required: true, message: t('validation.required') }]}>
              <Select options={opt('sex', SEXES)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="birth_date" label={t('patients.fields.birth_date')} rules={[{ required: true, message: t('validation.required') }]} {...dateItem}>
              <DatePicker format={dateFormat()} style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day') || d.isBefore(dayjs().subtract(130, 'year'))} />
            </Form.Item>
            <Form.Item name="birth_date_estimated" valuePropName="checked" style={{ marginTop: -16 }}>
              <Checkbox>{t('patients.fields.birth_date_estimated')}</Checkbox>
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="civil_status" label={t('patients.fields.civil_status')}>
              <Select allowClear={clear.select} options={opt('civil', CIVIL_STATUSES)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name="blood_type" label={t('patients.fields.blood_type')}>
              <Select allowClear={clear.select} options={plain(BLOOD_TYPES)} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('patients.sections.contact')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="phone" label={t('patients.fields.phone')} rules={[{ max: 30 }, { pattern: /^[0-9+()\-. ]*$/, message: t('validation.phone') }]}>
              <Input inputMode="tel" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="email" label={t('patients.fields.email')} rules={[{ type: 'email', message: t('validation.email') }]}>
              <Input inputMode="email" autoComplete="off" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="occupation" label={t('patients.fields.occupation')} rules={[{ max: 100 }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="address" label={t('patients.fields.address')} rules={[{ max: 300 }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="referred_by" label={t('patients.fields.referred_by')} rules={[{ max: 100 }]}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('patients.sections.history')} style={{ marginBottom: 16 }}>
        {/* An empty list says nothing: whether anyone asked is recorded as such. */}
        <Form.Item name={['history', 'allergy_status']} label={t('patients.allergyStatus.label')} rules={[{ required: true, message: t('validation.required') }]}>
          <Radio.Group
            options={ALLERGY_STATUSES.map((s) => ({ value: s, label: t(`patients.allergyStatus.${s}`) }))}
            onChange={(e) => {
              const listed = form.getFieldValue(['history', 'allergies']) as unknown[]
              if (e.target.value === 'present' && listed.length === 0) form.setFieldValue(['history', 'allergies'], [{ substance: '', reaction: '', severity: '' }])
              if (e.target.value !== 'present') form.setFieldValue(['history', 'allergies'], [])
            }}
          />
        </Form.Item>
        <Form.List name={['history', 'allergies']}>
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Row gutter={12} key={f.key} align="top" style={{ marginTop: 8 }}>
                  <Col xs={24} md={8}>
                    <Form.Item name={[f.name, 'substance']} label={t('patients.fields.substance')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
                      <Input />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={9}>
                    <Form.Item name={[f.name, 'reaction']} label={t('patients.fields.reaction')}>
                      <Input />
                    </Form.Item>
                  </Col>
                  <Col xs={20} md={5}>
                    <Form.Item name={[f.name, 'severity']} label={t('patients.fields.severity')} initialValue="">
                      <Select allowClear={clear.select} options={opt('severity', SEVERITIES)} />
                    </Form.Item>
                  </Col>
                  <Col xs={4} md={2} style={{ paddingTop: 30 }}>
                    <Button icon={<DeleteOutlined aria-hidden />} onClick={() => remove(f.name)} aria-label={t('patients.fields.removeAllergy')} />
                  </Col>
                </Row>
              ))}
              {allergyStatus === 'present' && (
                <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ substance: '', reaction: '', severity: '' })} style={{ margin: '8px 0 16px' }}>
                  {t('patients.fields.addAllergy')}
                </Button>
              )}
            </>
          )}
        </Form.List>
        <Form.Item name={['history', 'chronic']} label={t('patients.fields.chronic')}>
          <Checkbox.Group options={opt('chronic', CHRONIC)} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name={['history', 'chronic_other']} label={t('patients.fields.chronic_other')}>
              <Input.TextArea autoSize={{ minRows: 2 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['history', 'past_admissions']} label={t('patients.fields.past_admissions')}>
              <Input.TextArea autoSize={{ minRows: 2 }} />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name={['history', 'past_surgeries']} label={t('patients.fields.past_surgeries')}>
              <Input.TextArea autoSize={{ minRows: 2 }} />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('patients.sections.familySocial')} style={{ marginBottom: 16 }}>
        <Form.Item name={['history', 'family']} label={t('patients.fields.family')}>
          <Checkbox.Group options={opt('family', FAMILY)} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item name={['history', 'family_other']} label={t('patients.fields.family_other')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['history', 'smoking']} label={t('patients.fields.smoking')}>
              <Select allowClear={clear.select} options={opt('social', SOCIAL)} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['history', 'alcohol']} label={t('patients.fields.alcohol')}>
              <Select allowClear={clear.select} options={opt('social', SOCIAL)} />
            </Form.Item>
          </Col>
          <Col xs={24} md={6}>
            <Form.Item name={['history', 'social_other']} label={t('patients.fields.social_other')}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name={['history', 'vaccinations']} label={t('patients.fields.vaccinations')}>
          <Input.TextArea autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Card>
      <Card title={t('patients.sections.emergency')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={10}>
            <Form.Item name={['emergency_contact', 'name']} label={t('patients.fields.contact_name')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name={['emergency_contact', 'relation']} label={t('patients.fields.contact_relation')}>
              <Input />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name={['emergency_contact', 'phone']} label={t('patients.fields.contact_phone')}>
              <Input inputMode="tel" />
            </Form.Item>
          </Col>
        </Row>
      </Card>
      <Card title={t('patients.sections.remarks')}>
        <Form.Item name="remarks" label={t('patients.fields.remarks')}>
          <Input.TextArea autoSize={{ minRows: 3 }} maxLength={2000} />
        </Form.Item>
      </Card>
    </Form>
  )
}
