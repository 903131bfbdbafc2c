import { Alert, App, Button, Card, Form, Input, Spin, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { useClinic, type Clinic } from '../../lib/clinic'
import { useSaveClinic } from './api/saveClinic'

/** The clinic's name, address and phone that head every printed prescription and document, and its public address. */
export default function ClinicPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveClinic = useSaveClinic()
  const { data } = useClinic()
  const [form] = Form.useForm<Clinic>()
  const publicUrl = Form.useWatch('public_url', form) ?? ''
  useEffect(() => {
    if (data) form.setFieldsValue(data)
  }, [data, form])
  if (!data) return <Spin />
  const save = async (v: Clinic) => {
    try {
      await saveClinic(v, data.version)
      message.success(t('clinic.saved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Card title={t('clinic.title')} style={{ maxWidth: 640 }}>
      <Typography.Paragraph type="secondary">{t('clinic.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item name="name" label={t('clinic.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="address" label={t('clinic.address')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={300} />
        </Form.Item>
        <Form.Item name="phone" label={t('clinic.phone')}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="tax_id" label={t('clinic.taxId')} extra={t('clinic.taxIdHint')}>
          <Input maxLength={300} autoComplete="off" />
        </Form.Item>
        <Form.Item name="public_url" label={t('clinic.publicUrl')} extra={t('clinic.publicUrlHint')}>
          <Input maxLength={300} inputMode="url" placeholder="https://" />
        </Form.Item>
        {!data.public_url && (
          <Alert type="warning" showIcon style={{ marginBottom: 24 }} data-testid="no-public-address" title={t('clinic.publicUrlEmpty', { address: window.location.origin })} />
        )}
        <Form.Item name="number_system" label={t('clinic.numberSystem')} extra={t('clinic.numberSystemHint', { system: derivedSystem(publicUrl) })}>
          <Input maxLength={300} inputMode="url" placeholder={derivedSystem(publicUrl)} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('clinic.save')}
        </Button>
      </Form>
    </Card>
  )
}

/** The patient number system the server derives when none is set (settings.Clinic.PatientNumberSystem). */
function derivedSystem(publicUrl: string) {
  const base = publicUrl.trim().replace(/\/+$/, '')
  return base ? `${base}/fhir/sid/patient-number` : 'urn:emr:mrn'
}
