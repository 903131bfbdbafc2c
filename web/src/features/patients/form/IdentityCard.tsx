import { Card, Checkbox, Col, Form, Input, InputNumber, Row, Select } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { useClearable } from '../../../components/clearable'
import { BLOOD_TYPES } from '../api/types'
import { civilStatusLabel, sexLabel } from '../../../lib/labels'
import { useOptions } from './options'
import { DateInput } from '../../../components/DateInput'

// The birth date is kept as YYYY-MM-DD; the picker works on dayjs values.
const dateItem = { getValueProps: (v: string) => ({ value: v ? dayjs(v) : null }), normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '') }

/** Names, sex, birth date (or its estimate), gestational age at birth, civil status, blood type. Inside the patient's form. */
export function IdentityCard() {
  const { t } = useTranslation()
  const clear = useClearable()
  const { opt, plain } = useOptions()
  return (
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
          <Select options={opt(sexLabel)} />
        </Form.Item>
      </Col>
      <Col xs={24} md={6}>
        <Form.Item name="birth_date" label={t('patients.fields.birth_date')} rules={[{ required: true, message: t('validation.required') }]} {...dateItem}>
          <DateInput style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day') || d.isBefore(dayjs().subtract(130, 'year'))} />
        </Form.Item>
        <Form.Item name="birth_date_estimated" valuePropName="checked" style={{ marginTop: -16 }}>
          <Checkbox>{t('patients.fields.birth_date_estimated')}</Checkbox>
        </Form.Item>
      </Col>
      <Col xs={24} md={6}>
        <Form.Item
          name="gestation_weeks"
          label={t('patients.fields.gestation_weeks')}
          extra={t('patients.gestationHelp')}
          rules={[{ type: 'integer', min: 22, max: 44, message: t('patients.gestationRange') }]}
        >
          <InputNumber style={{ width: '100%' }} controls={false} min={22} max={44} precision={0} addonAfter={t('patients.weeks')} aria-label={t('patients.fields.gestation_weeks')} />
        </Form.Item>
      </Col>
      <Col xs={24} md={6}>
        <Form.Item name="civil_status" label={t('patients.fields.civil_status')}>
          <Select allowClear={clear.select} options={opt(civilStatusLabel)} />
        </Form.Item>
      </Col>
      <Col xs={24} md={6}>
        <Form.Item name="blood_type" label={t('patients.fields.blood_type')}>
          <Select allowClear={clear.select} options={plain(BLOOD_TYPES)} />
        </Form.Item>
      </Col>
    </Row>
  </Card>
  )
}
