// When a critical result that nobody acknowledged escalates, and to whom: the covering role
// after the first interval, the clinic's medical lead after the second. The limits (5–60
// minutes) are the server's: a value outside is refused there with a message under its field,
// never changed here; and the card says whether escalations also leave the app by e-mail.
import { Alert, App, Button, Card, Form, InputNumber, Select, Space, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/auth/can'
import { showFormErrors } from '../../../lib/formErrors'
import { useLeadCandidates } from '../api/listLeadCandidates'
import { useResultSettings } from '../api/getResultSettings'
import type { ResultSettings } from '../api/resultsCatalogue'
import { useSaveResultSettings } from '../api/saveResultSettings'

const ROLES = ['doctor', 'nurse', 'admin']

export function ResultSettingsCard() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const can = useCan('manage settings')
  const settings = useResultSettings()
  const leads = useLeadCandidates()
  const saveResultSettings = useSaveResultSettings()
  const [form] = Form.useForm<ResultSettings>()
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data)
  }, [settings.data, form])
  const save = async (v: ResultSettings) => {
    try {
      await saveResultSettings({ ...v, version: settings.data?.version ?? 0 })
      void message.success(t('catalogueEditor.settingsSaved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const leadOptions = (leads.data ?? []).map((d) => ({ value: d.id, label: d.name }))
  const current = settings.data
  if (current?.medical_lead_id != null && !leadOptions.some((o) => o.value === current.medical_lead_id)) {
    leadOptions.push({ value: current.medical_lead_id, label: current.medical_lead_name ?? '' })
  }
  const minutes = (name: 'escalate_after_minutes' | 'lead_after_minutes', label: string) => (
    <Form.Item name={name} label={label} extra={t('catalogueEditor.intervalLimits')} rules={[{ required: true, message: t('validation.required') }]}>
      {/* No min/max here: the server refuses a value outside its limits and says so; the form never changes it. */}
      <InputNumber controls={false} precision={0} style={{ width: 160 }} />
    </Form.Item>
  )
  return (
    <Card title={t('catalogueEditor.settingsTitle')}>
      <Typography.Paragraph type="secondary">{t('catalogueEditor.settingsHint')}</Typography.Paragraph>
      {current && (
        <Alert
          type={current.email ? 'info' : 'warning'}
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="critical-email-state"
          title={current.email ? t('catalogueEditor.emailOn') : t('catalogueEditor.emailOff')}
        />
      )}
      <Form<ResultSettings> form={form} layout="vertical" disabled={!can || !settings.data} onFinish={(v) => void save(v)}>
        <Space wrap align="start">
          {minutes('escalate_after_minutes', t('catalogueEditor.escalateAfter'))}
          <Form.Item name="covering_role" label={t('catalogueEditor.coveringRole')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select style={{ width: 200 }} options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`, { defaultValue: r }) }))} />
          </Form.Item>
          {minutes('lead_after_minutes', t('catalogueEditor.leadAfter'))}
          <Form.Item name="medical_lead_id" label={t('catalogueEditor.medicalLead')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select style={{ width: 220 }} options={leadOptions} loading={leads.isLoading} showSearch optionFilterProp="label" />
          </Form.Item>
        </Space>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('catalogueEditor.saveSettings')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  )
}
