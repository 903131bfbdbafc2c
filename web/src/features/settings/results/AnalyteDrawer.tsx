// One analyte of the results catalogue, edited whole: names, LOINC, unit and decimals, what
// a person can have, the change that deserves attention, coded answers, and the ranges by sex
// and age band. Saved results keep the ranges they were judged by.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Col, Drawer, Form, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { analytesKey, saveAnalyte, type AnalyteEdit } from '../api/resultsCatalogue'

const SEXES = ['any', 'female', 'male'] as const

export function AnalyteDrawer({ analyte, onClose }: { analyte: AnalyteEdit; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const queryClient = useQueryClient()
  const [form] = Form.useForm<AnalyteEdit>()
  const [problem, setProblem] = useState('')
  const [saving, setSaving] = useState(false)
  const save = async () => {
    setProblem('')
    const v = form.getFieldsValue(true) as AnalyteEdit
    setSaving(true)
    try {
      await saveAnalyte({ ...analyte, ...v, code: analyte.code, type: analyte.type, version: analyte.version })
      void queryClient.invalidateQueries({ queryKey: analytesKey })
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
                  <InputNumber controls={false} min={0} max={4} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="plausible_low" label={t('catalogueEditor.plausibleLow')}>
                  <InputNumber controls={false} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="plausible_high" label={t('catalogueEditor.plausibleHigh')}>
                  <InputNumber controls={false} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="delta_percent" label={t('catalogueEditor.deltaPercent')}>
                  <InputNumber controls={false} min={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item name="delta_abs" label={t('catalogueEditor.deltaAbs')}>
                  <InputNumber controls={false} min={0} style={{ width: '100%' }} />
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
                    <Row gutter={6} key={f.key} align="bottom" style={{ borderBottom: '1px solid #f0f0f0', paddingBottom: 4 }}>
                      <Col xs={12} sm={5}>
                        <Form.Item name={[f.name, 'sex']} label={t('catalogueEditor.sexLabel')}>
                          <Select options={SEXES.map((s) => ({ value: s, label: t(`catalogueEditor.sex.${s}`) }))} />
                        </Form.Item>
                      </Col>
                      <Col xs={6} sm={3}>
                        <Form.Item name={[f.name, 'age_from_months']} label={t('catalogueEditor.fromMonths')}>
                          <InputNumber controls={false} min={0} style={{ width: '100%' }} />
                        </Form.Item>
                      </Col>
                      <Col xs={6} sm={3}>
                        <Form.Item name={[f.name, 'age_to_months']} label={t('catalogueEditor.toMonths')}>
                          <InputNumber controls={false} min={1} style={{ width: '100%' }} />
                        </Form.Item>
                      </Col>
                      {(['critical_low', 'low', 'high', 'critical_high'] as const).map((b) => (
                        <Col xs={6} sm={3} key={b}>
                          <Form.Item name={[f.name, b]} label={t(`catalogueEditor.bounds.${b}`)}>
                            <InputNumber controls={false} style={{ width: '100%' }} />
                          </Form.Item>
                        </Col>
                      ))}
                      <Col xs={24} sm={1}>
                        <Form.Item>
                          <Button icon={<DeleteOutlined aria-hidden />} aria-label={t('catalogueEditor.removeRange')} onClick={() => remove(f.name)} />
                        </Form.Item>
                      </Col>
                    </Row>
                  ))}
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ sex: 'any', age_from_months: 216, age_to_months: null })}>
                    {t('catalogueEditor.addRange')}
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
