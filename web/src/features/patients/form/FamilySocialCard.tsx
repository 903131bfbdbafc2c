import { Card, Checkbox, Col, Form, Input, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { useClearable } from '../../../components/clearable'
import { familyLabel, socialLabel } from '../../../lib/labels'
import { useOptions } from './options'

/** Family history, smoking, alcohol, other social history, vaccinations. Inside the patient's form. */
export function FamilySocialCard() {
  const { t } = useTranslation()
  const clear = useClearable()
  const { opt } = useOptions()
  return (
  <Card title={t('patients.sections.familySocial')} style={{ marginBottom: 16 }}>
    <Form.Item name={['history', 'family']} label={t('patients.fields.family')}>
      <Checkbox.Group options={opt(familyLabel)} />
    </Form.Item>
    <Row gutter={16}>
      <Col xs={24} md={6}>
        <Form.Item name={['history', 'family_other']} label={t('patients.fields.family_other')}>
          <Input />
        </Form.Item>
      </Col>
      <Col xs={12} md={6}>
        <Form.Item name={['history', 'smoking']} label={t('patients.fields.smoking')}>
          <Select allowClear={clear.select} options={opt(socialLabel)} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6}>
        <Form.Item name={['history', 'alcohol']} label={t('patients.fields.alcohol')}>
          <Select allowClear={clear.select} options={opt(socialLabel)} />
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
  )
}
