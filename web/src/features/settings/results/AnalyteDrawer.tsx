// One analyte of the results catalogue, edited whole: names, LOINC, unit and decimals, what
// a person can have, coded answers, the reference ranges by sex and age band, the critical
// limits by age (any sex) and the delta checks with their windows. Saved results keep the
// limits they were judged by.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, App, Button, Col, Drawer, Form, Input, InputNumber, Row, Select, Space, Tag, Typography, type FormRule } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { NumberInput } from '../../../components/NumberInput'
import { ApiError } from '../../../lib/api'
import { unitLabel } from '../../../lib/units'
import type { AnalyteEdit } from '../api/resultsCatalogue'
import { useSaveAnalyte } from '../api/saveAnalyte'
import { ageBand, criticalGaps, windowText, type CriticalBand } from './bands'

const SEXES = ['any', 'female', 'male'] as const
const MAX_WINDOW_HOURS = 24 * 3653 // the server's MaxDeltaWindowHours: ten years

const rowStyle = { borderBottom: '1px solid #f0f0f0', paddingBottom: 4 }

export function AnalyteDrawer({ analyte, onClose }: { analyte: AnalyteEdit; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const saveAnalyte = useSaveAnalyte()
  const [form] = Form.useForm<AnalyteEdit>()
  const [problem, setProblem] = useState('')
  const [saving, setSaving] = useState(false)
  // A typed number the one reader could not read is NaN, which JSON would send as null and so
  // erase a limit: the save waits until it is typed again.
  const readable: FormRule = { validator: (_, v) => (typeof v === 'number' && Number.isNaN(v) ? Promise.reject(new Error(t('number.notANumber'))) : Promise.resolve()) }
  const save = async () => {
    setProblem('')
    try {
      await form.validateFields()
    } catch {
      return
    }
    const v = form.getFieldsValue(true) as AnalyteEdit
    setSaving(true)
    try {
      await saveAnalyte({ ...analyte, ...v, code: analyte.code, type: analyte.type, version: analyte.version })
      void message.success(t('catalogueEditor.saved'))
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const fields = Object.entries(e.fields)
      form.setFields(fields.map(([name, errors]) => ({ name: name.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors })))
      setProblem(e.display)
    } finally {
      setSaving(false)
    }
  }
  const numeric = analyte.type === 'numeric'
  const unit = unitLabel(t, (Form.useWatch('unit', form) as string | undefined) ?? analyte.unit)
  return (
    <Drawer
      open
      size="large"
      title={`${analyte.labels[i18n.language as 'en'] || analyte.labels.en} · ${analyte.code}`}
      onClose={onClose}
      extra={
        <Button type="primary" onClick={() => void save()} loading={saving} data-testid="save-analyte">
          {t('catalogueEditor.save')}
        </Button>
      }
    >
      {problem && <Alert type="error" showIcon role="alert" title={problem} style={{ marginBottom: 12 }} />}
      <Form<AnalyteEdit> form={form} layout="vertical" initialValues={analyte}>
        <Row gutter={12}>
          {(['en', 'ru', 'zh', 'vi'] as const).map((l) => (
            <Col xs={24} sm={12} key={l}>
              <Form.Item name={['labels', l]} label={t(`catalogueEditor.nameIn.${l}`)}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          ))}
          <Col xs={12} sm={8}>
            <Form.Item name="loinc" label="LOINC">
              <Input maxLength={10} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            <Form.Item label={t('catalogueEditor.type')}>
              <Tag>{t(`catalogueEditor.types.${analyte.type}`)}</Tag>
            </Form.Item>
          </Col>
          {numeric && (
            <>
              <Col xs={12} sm={8}>
                <Form.Item name="unit" label={t('catalogueEditor.unit')} extra={t('catalogueEditor.unitHint')}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="decimals" label={t('catalogueEditor.decimals')}>
                  <InputNumber controls={false} min={0} max={4} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="plausible_low" label={t('catalogueEditor.plausibleLow')} rules={[readable]}>
                  <NumberInput unit={unit} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="plausible_high" label={t('catalogueEditor.plausibleHigh')} rules={[readable]}>
                  <NumberInput unit={unit} />
                </Form.Item>
              </Col>
            </>
          )}
          {analyte.type === 'coded' && (
            <Col xs={24}>
              <Form.Item name="answers" label={t('catalogueEditor.answers')} extra={t('catalogueEditor.answersHint')}>
                <Input maxLength={300} />
              </Form.Item>
            </Col>
          )}
        </Row>
        {numeric && analyte.units && analyte.units.length > 0 && (
          <Typography.Paragraph type="secondary">
            {t('catalogueEditor.entryUnits')}: {analyte.units.map((u) => u.unit).join(', ')}
          </Typography.Paragraph>
        )}
        {numeric && (
          <>
            <Typography.Title level={5}>{t('catalogueEditor.ranges')}</Typography.Title>
            <Form.List name="ranges">
              {(fields, { add, remove }) => (
                <Space orientation="vertical" size={4} style={{ width: '100%' }}>
                  {fields.map((f) => (
                    <Row gutter={6} key={f.key} align="bottom" style={rowStyle}>
                      <Col xs={24} sm={6}>
                        <Form.Item name={[f.name, 'sex']} label={t('catalogueEditor.sexLabel')}>
                          <Select options={SEXES.map((s) => ({ value: s, label: t(`catalogueEditor.sex.${s}`) }))} />
                        </Form.Item>
                      </Col>
                      <AgeFields name={f.name} span={4} />
                      {(['low', 'high'] as const).map((b) => (
                        <Col xs={10} sm={4} key={b}>
                          <Form.Item name={[f.name, b]} label={t(`catalogueEditor.bounds.${b}`)} rules={[readable]}>
                            <NumberInput />
                          </Form.Item>
                        </Col>
                      ))}
                      <RemoveButton label={t('catalogueEditor.removeRange')} onClick={() => remove(f.name)} />
                    </Row>
                  ))}
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ sex: 'any', age_from_months: 216, age_to_months: null })}>
                    {t('catalogueEditor.addRange')}
                  </Button>
                </Space>
              )}
            </Form.List>

            <Typography.Title level={5} style={{ marginTop: 20 }}>
              {t('catalogueEditor.criticalTitle')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t('catalogueEditor.criticalHint')}</Typography.Paragraph>
            <Form.List name="critical">
              {(fields, { add, remove }) => (
                <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="critical-bands">
                  {fields.map((f) => (
                    <Row gutter={6} key={f.key} align="bottom" style={rowStyle}>
                      <AgeFields name={f.name} span={4} />
                      {(['critical_low', 'critical_high'] as const).map((b) => (
                        <Col xs={10} sm={7} key={b}>
                          <Form.Item name={[f.name, b]} label={t(`catalogueEditor.bounds.${b}`)} rules={[readable]}>
                            <NumberInput />
                          </Form.Item>
                        </Col>
                      ))}
                      <RemoveButton label={t('catalogueEditor.removeCritical')} onClick={() => remove(f.name)} />
                      <SourceField name={f.name} />
                    </Row>
                  ))}
                  <CriticalGaps />
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ age_from_months: 0, age_to_months: null, critical_low: null, critical_high: null, source: '' })}>
                    {t('catalogueEditor.addCritical')}
                  </Button>
                </Space>
              )}
            </Form.List>

            <Typography.Title level={5} style={{ marginTop: 20 }}>
              {t('catalogueEditor.deltaTitle')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t('catalogueEditor.deltaHint')}</Typography.Paragraph>
            <Form.List name="delta_rules">
              {(fields, { add, remove }) => (
                <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="delta-rules">
                  {fields.map((f) => (
                    <Row gutter={6} key={f.key} align="bottom" style={rowStyle}>
                      <Col xs={24} sm={6}>
                        <WindowField name={f.name} />
                      </Col>
                      <Col xs={10} sm={8}>
                        <Form.Item name={[f.name, 'percent']} label={t('catalogueEditor.deltaPercent')} rules={[readable]}>
                          <NumberInput unit="%" />
                        </Form.Item>
                      </Col>
                      <Col xs={10} sm={8}>
                        <Form.Item name={[f.name, 'abs']} label={t('catalogueEditor.deltaAbs')} rules={[readable]}>
                          <NumberInput unit={unit} />
                        </Form.Item>
                      </Col>
                      <RemoveButton label={t('catalogueEditor.removeDelta')} onClick={() => remove(f.name)} />
                      <SourceField name={f.name} />
                    </Row>
                  ))}
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ window_hours: null, percent: null, abs: null, source: '' })}>
                    {t('catalogueEditor.addDelta')}
                  </Button>
                </Space>
              )}
            </Form.List>
          </>
        )}
      </Form>
    </Drawer>
  )
}

/** A band's ages in completed months, [from, until). */
function AgeFields({ name, span }: { name: number; span: number }) {
  const { t } = useTranslation()
  return (
    <>
      <Col xs={12} sm={span}>
        <Form.Item name={[name, 'age_from_months']} label={t('catalogueEditor.fromMonths')}>
          <InputNumber controls={false} min={0} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col xs={12} sm={span}>
        <Form.Item name={[name, 'age_to_months']} label={t('catalogueEditor.toMonths')}>
          <InputNumber controls={false} min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    </>
  )
}

/** Where a rule comes from (a guideline, a survey, the clinic's own decision), read in full. */
function SourceField({ name }: { name: number }) {
  const { t } = useTranslation()
  return (
    <Col xs={24}>
      <Form.Item name={[name, 'source']} label={t('catalogueEditor.source')}>
        <Input.TextArea maxLength={1000} autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
    </Col>
  )
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Col xs={4} sm={2}>
      <Form.Item>
        <Button icon={<DeleteOutlined aria-hidden />} aria-label={label} onClick={onClick} />
      </Form.Item>
    </Col>
  )
}

/** A delta rule's window in hours, said also in days from a day on. */
function WindowField({ name }: { name: number }) {
  const { t } = useTranslation()
  const hours = Form.useWatch(['delta_rules', name, 'window_hours']) as number | null | undefined
  return (
    <Form.Item name={[name, 'window_hours']} label={t('catalogueEditor.windowHours')}>
      <InputNumber controls={false} min={1} max={MAX_WINDOW_HOURS} precision={0} suffix={hours != null && hours >= 24 ? `= ${windowText(hours, t)}` : undefined} style={{ width: '100%' }} />
    </Form.Item>
  )
}

/** The ages no critical band covers, once there is one: a value there would alert no one. */
function CriticalGaps() {
  const { t } = useTranslation()
  const bands = (Form.useWatch('critical') as CriticalBand[] | undefined) ?? []
  const gaps = criticalGaps(bands.filter(Boolean))
  if (gaps.length === 0) return null
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="critical-gaps"
      title={t('catalogueEditor.criticalGap', { ages: gaps.map((g) => ageBand(g.from, g.to, t)).join('; ') })}
    />
  )
}
