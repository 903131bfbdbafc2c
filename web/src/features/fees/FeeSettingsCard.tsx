import { App, Button, Card, Form, Input, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { useSaveFeeSettings } from './api/saveFeeSettings'
import { APPOINTMENT_TYPES, type FeeSettings, type Service } from './api/types'
import { useMoney } from './bill/useMoney'

/** The clinic currency and, per appointment type, the service a new visit's bill starts with. */
export function FeeSettingsCard({ settings, services }: { settings: FeeSettings; services: Service[] }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveFeeSettings = useSaveFeeSettings()
  const [form] = Form.useForm()
  const money = useMoney(settings.currency, settings.minor_units)
  const choices = [{ value: '', label: t('fees.noFee') }, ...services.filter((s) => s.active).map((s) => ({ value: s.code, label: `${s.code} — ${s.name}` }))]

  const save = async (v: { currency: string } & Record<string, string>) => {
    try {
      const consultation = Object.fromEntries(APPOINTMENT_TYPES.map((typ) => [typ, v[`type:${typ}`] ?? '']))
      const limit = money.parse(v.drawer_difference_limit ?? '') ?? 0
      await saveFeeSettings({ currency: v.currency, consultation, drawer_difference_limit: limit }, settings.version)
      message.success(t('fees.settingsSaved'))
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
        initialValues={{
          currency: settings.currency,
          drawer_difference_limit: money.toMajor(settings.drawer_difference_limit ?? 0),
          ...Object.fromEntries(APPOINTMENT_TYPES.map((typ) => [`type:${typ}`, settings.consultation[typ] ?? ''])),
        }}
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
        {/* The tolerance of a drawer's count (the cashier's review, M7): above it a supervisor acknowledges the close. */}
        <Form.Item
          name="drawer_difference_limit"
          label={t('fees.differenceLimit', { currency: settings.currency })}
          extra={t('fees.differenceLimitHint')}
          rules={[{ required: true, whitespace: true, message: t('validation.required') }, money.rule(true)]}
        >
          <Input inputMode="decimal" maxLength={18} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('fees.saveSettings')}
        </Button>
      </Form>
    </Card>
  )
}
