import { Card, Form, Input } from 'antd'
import { useTranslation } from 'react-i18next'

/** Chief complaint, history of present illness, examination. Inside the visit's form. */
export function FindingsCard({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.findings')} style={{ marginBottom: 16 }}>
      <Form.Item name="chief_complaint" label={t('visit.fields.chief_complaint')}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} maxLength={4000} disabled={disabled} />
      </Form.Item>
      <Form.Item name="present_illness" label={t('visit.fields.present_illness')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={disabled} />
      </Form.Item>
      <Form.Item name="examination" label={t('visit.fields.examination')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={disabled} />
      </Form.Item>
    </Card>
  )
}
