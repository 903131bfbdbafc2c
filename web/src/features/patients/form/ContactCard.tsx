import { Card, Col, Form, Input, Row } from 'antd'
import { useTranslation } from 'react-i18next'

/** Phone, e-mail, occupation, address, referred by. Inside the patient's form. */
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
