import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Form, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { servicesKey } from '../../lib/queryKeys'
import { saveFeeSettings } from './api/feeSettings'
import { APPOINTMENT_TYPES, type FeeSettings, type Service } from './api/types'

/** The clinic currency and, per appointment type, the service a new visit's bill starts with. */
export function FeeSettingsCard({ settings, services }: { settings: FeeSettings; services: Service[] }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const queryClient = useQueryClient()
  const [form] = Form.useForm()
  const choices = [{ value: '', label: t('fees.noFee') }, ...services.filter((s) => s.active).map((s) => ({ value: s.code, label: `${s.code} — ${s.name}` }))]

  const save = async (v: { currency: string } & Record<string, string>) => {
    try {
      const consultation = Object.fromEntries(APPOINTMENT_TYPES.map((typ) => [typ, v[`type:${typ}`] ?? '']))
      await saveFeeSettings({ currency: v.currency, consultation }, settings.version)
      message.success(t('fees.settingsSaved'))
      void queryClient.invalidateQueries({ queryKey: servicesKey })
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  return (
    <Card title={t('fees.settings')}>
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 480 }}
        initialValues={{ currency: settings.currency, ...Object.fromEntries(APPOINTMENT_TYPES.map((typ) => [`type:${typ}`, settings.consultation[typ] ?? ''])) }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item name="currency" label={t('fees.currency')} extra={t('fees.currencyHint')}>
          <Select showSearch options={settings.currencies.map((c) => ({ value: c, label: c }))} />
        </Form.Item>
        {APPOINTMENT_TYPES.map((typ) => (
          <Form.Item key={typ} name={`type:${typ}`} label={t('fees.consultationFor', { type: t(`appointments.types.${typ}`) })}>
            <Select options={choices} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit">
          {t('fees.saveSettings')}
        </Button>
      </Form>
    </Card>
  )
}
