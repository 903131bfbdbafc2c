import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Spin, Switch, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { messageSettingsKey, saveMessageSettings, useMessageSettings, type MessageSettings } from './api/messages'

/** The reminder offsets a clinic picks from, in minutes before the appointment. */
const OFFSETS = [7 * 24 * 60, 3 * 24 * 60, 2 * 24 * 60, 24 * 60, 12 * 60, 4 * 60, 2 * 60, 60, 30]

const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'ru', label: 'Русский' },
  { value: 'zh', label: '中文' },
  { value: 'vi', label: 'Tiếng Việt' },
]

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/

/** The clinic's rules for appointment messages to patients: reminders, quiet hours, cancelling, channels. */
export default function MessageSettingsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const queryClient = useQueryClient()
  const { data } = useMessageSettings()
  const [form] = Form.useForm<MessageSettings>()
  useEffect(() => {
    if (data) form.setFieldsValue(data)
  }, [data, form])
  if (!data) return <Spin />
  const offsetLabel = (m: number) => (m % (24 * 60) === 0 ? t('patientMessages.daysBefore', { count: m / (24 * 60) }) : m % 60 === 0 ? t('patientMessages.hoursBefore', { count: m / 60 }) : t('patientMessages.minutesBefore', { count: m }))
  const save = async (v: MessageSettings) => {
    try {
      const saved = await saveMessageSettings({ ...v, offsets_minutes: v.offsets_minutes ?? [] }, data.version)
      queryClient.setQueryData(messageSettingsKey, saved)
      message.success(t('patientMessages.settingsSaved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const time = { pattern: timePattern, message: t('patientMessages.timeFormat') }
  return (
    <Card title={t('patientMessages.settingsTitle')} style={{ maxWidth: 680 }}>
      <Typography.Paragraph type="secondary">{t('patientMessages.settingsHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item label={t('patientMessages.channels')}>
          <Space wrap>
            <Form.Item name="email" valuePropName="checked" noStyle>
              <Checkbox>{t('patientMessages.channel.email')}</Checkbox>
            </Form.Item>
            <Form.Item name="sms" valuePropName="checked" noStyle>
              <Checkbox>{t('patientMessages.channel.sms')}</Checkbox>
            </Form.Item>
          </Space>
        </Form.Item>
        <Form.Item name="reminders" label={t('patientMessages.remindersOn')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="offsets_minutes" label={t('patientMessages.offsets')} extra={t('patientMessages.offsetsHint')}>
          <Select mode="multiple" maxCount={5} options={OFFSETS.map((m) => ({ value: m, label: offsetLabel(m) }))} />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="quiet_start" label={t('patientMessages.quietStart')} rules={[time]}>
            <Input inputMode="numeric" placeholder="21:00" style={{ width: 120 }} maxLength={5} />
          </Form.Item>
          <Form.Item name="quiet_end" label={t('patientMessages.quietEnd')} rules={[time]}>
            <Input inputMode="numeric" placeholder="08:00" style={{ width: 120 }} maxLength={5} />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
          {t('patientMessages.quietHint')}
        </Typography.Paragraph>
        <Form.Item name="cancel_hours" label={t('patientMessages.cancelHours')} extra={t('patientMessages.cancelHoursHint')}>
          <InputNumber min={0} max={336} precision={0} controls={false} inputMode="numeric" suffix={t('patientMessages.hoursUnit')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="language" label={t('patientMessages.language')} extra={t('patientMessages.languageHint')}>
          <Select options={LANGUAGES} style={{ width: 200 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('patientMessages.save')}
        </Button>
      </Form>
    </Card>
  )
}
