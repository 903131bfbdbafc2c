import { Card, Col, Form, Input, Row, Select } from 'antd'
import { useTranslation } from 'react-i18next'

/** The languages a patient's messages may be written in, each named in itself. */
const messageLanguages = [
  { value: 'en', label: 'English' },
  { value: 'ru', label: 'Русский' },
  { value: 'zh', label: '中文' },
  { value: 'vi', label: 'Tiếng Việt' },
]

/** Phone, e-mail, how the patient hears of appointments, occupation, address, referred by. Inside the patient's form. */
export function ContactCard() {
  const { t } = useTranslation()
  return (
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
        <Form.Item
          name="reminders"
          label={t('patients.fields.reminders')}
          dependencies={['phone', 'email']}
          rules={[
            ({ getFieldValue }) => ({
              validator(_, value: string | undefined) {
                if (value === 'sms' && !String(getFieldValue('phone') ?? '').trim()) return Promise.reject(new Error(t('patients.reminders.smsNeedsPhone')))
                if (value === 'email' && !String(getFieldValue('email') ?? '').trim()) return Promise.reject(new Error(t('patients.reminders.emailNeedsAddress')))
                return Promise.resolve()
              },
            }),
          ]}
        >
          <Select
            options={[
              { value: '', label: t('patients.reminders.auto') },
              { value: 'email', label: t('patients.reminders.email') },
              { value: 'sms', label: t('patients.reminders.sms') },
              { value: 'none', label: t('patients.reminders.none') },
            ]}
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={8}>
        <Form.Item name="message_language" label={t('patients.fields.message_language')}>
          <Select options={[{ value: '', label: t('patients.reminders.clinicLanguage') }, ...messageLanguages]} />
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
  )
}
