// When a critical result that nobody acknowledged escalates, and to which role.
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Form, InputNumber, Select, Space, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/auth/can'
import { showFormErrors } from '../../../lib/formErrors'
import { resultSettingsKey, saveResultSettings, useResultSettings, type ResultSettings } from '../api/resultsCatalogue'

const ROLES = ['doctor', 'nurse', 'admin']

export function ResultSettingsCard() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const can = useCan('manage settings')
  const settings = useResultSettings()
  const queryClient = useQueryClient()
  const [form] = Form.useForm<ResultSettings>()
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data)
  }, [settings.data, form])
  const save = async (v: ResultSettings) => {
    try {
      const saved = await saveResultSettings({ ...v, version: settings.data?.version ?? 0 })
      queryClient.setQueryData(resultSettingsKey, saved)
      void message.success(t('catalogueEditor.settingsSaved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Card title={t('catalogueEditor.settingsTitle')}>
      <Typography.Paragraph type="secondary">{t('catalogueEditor.settingsHint')}</Typography.Paragraph>
      <Form<ResultSettings> form={form} layout="vertical" disabled={!can || !settings.data} onFinish={(v) => void save(v)}>
        <Space wrap align="end">
          <Form.Item name="escalate_after_minutes" label={t('catalogueEditor.escalateAfter')} rules={[{ required: true, message: t('validation.required') }]}>
            <InputNumber controls={false} min={5} max={1440} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="covering_role" label={t('catalogueEditor.coveringRole')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select style={{ width: 200 }} options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`, { defaultValue: r }) }))} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              {t('catalogueEditor.saveSettings')}
            </Button>
          </Form.Item>
        </Space>
      </Form>
    </Card>
  )
}
