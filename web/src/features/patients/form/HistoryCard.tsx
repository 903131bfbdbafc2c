import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, Card, Checkbox, Col, Form, Input, Radio, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { useClearable } from '../../../components/clearable'
import { allergyStatusLabel, chronicLabel, severityLabel } from '../../../lib/labels'
import { useOptions } from './options'

/**
 * Allergies (whether anyone asked is recorded: not asked, none known, or listed), chronic
 * conditions, past admissions and surgeries. Inside the patient's form.
 */
export function HistoryCard() {
  const { t } = useTranslation()
  const clear = useClearable()
  const { opt } = useOptions()
  const form = Form.useFormInstance()
  const allergyStatus = Form.useWatch(['history', 'allergy_status'], form)
  return (
  <Card title={t('patients.sections.history')} style={{ marginBottom: 16 }}>
    {/* An empty list says nothing: whether anyone asked is recorded as such. */}
    <Form.Item name={['history', 'allergy_status']} label={t('patients.allergyStatus.label')} rules={[{ required: true, message: t('validation.required') }]}>
      <Radio.Group
        options={opt(allergyStatusLabel)}
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
                  <Select allowClear={clear.select} options={opt(severityLabel)} />
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
      <Checkbox.Group options={opt(chronicLabel)} />
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
  )
}
