import { Card, Col, Form, Input, Row } from 'antd'
import { useTranslation } from 'react-i18next'

/** The emergency contact or caregiver, and the remarks. Inside the patient's form. */
export function ContactPersonCards() {
  const { t } = useTranslation()
  return (
    <>
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
    </>
  )
}
