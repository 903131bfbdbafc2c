import { App, Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Spin, Switch, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useClinic } from '../../lib/clinic'
import { showFormErrors } from '../../lib/formErrors'
import { useMessageSettings } from './api/getMessageSettings'
import type { MessageSettings } from './api/messages'
import { useSaveMessageSettings } from './api/saveMessageSettings'

/** The reminder offsets a clinic picks from, in minutes before the appointment. */
const OFFSETS = [7 * 24 * 60, 3 * 24 * 60, 2 * 24 * 60, 24 * 60, 12 * 60, 4 * 60, 2 * 60, 60, 30]

const LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'ru', label: 'Русский' },
  { value: 'zh', label: '中文' },
  { value: 'vi', label: 'Tiếng Việt' },
]

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/

/** A country calling code as E.164 writes one: 1 to 3 digits, no leading zero (the server checks the rest). */
const callingCodePattern = /^\+?[1-9]\d{0,2}$/

/** The clinic's own calling code from its phone written with + or 00, '' when it does not say (as the server reads it). */
export function ownCallingCode(phone: string | undefined): string {
  const p = (phone ?? '').trim()
  const d = p.replace(/\D/g, '')
  const digits = p.startsWith('+') ? d : d.startsWith('00') ? d.slice(2) : ''
  if (!digits) return ''
  if (digits[0] === '1' || digits[0] === '7') return digits[0]
  const two = ['20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49', '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98']
  return digits.slice(0, two.includes(digits.slice(0, 2)) ? 2 : 3)
}

/** The clinic's rules for appointment messages to patients: reminders, quiet hours, cancelling, channels. */
export default function MessageSettingsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveMessageSettings = useSaveMessageSettings()
  const { data } = useMessageSettings()
  const { data: clinic } = useClinic()
  const [form] = Form.useForm<MessageSettings>()
  useEffect(() => {
    if (data) form.setFieldsValue(data)
  }, [data, form])
  if (!data) return <Spin />
  const offsetLabel = (m: number) => (m % (24 * 60) === 0 ? t('patientMessages.daysBefore', { count: m / (24 * 60) }) : m % 60 === 0 ? t('patientMessages.hoursBefore', { count: m / 60 }) : t('patientMessages.minutesBefore', { count: m }))
  const save = async (v: MessageSettings) => {
    try {
      await saveMessageSettings(
        { ...v, offsets_minutes: v.offsets_minutes ?? [], sms_code_countries: (v.sms_code_countries ?? []).map((c) => c.trim().replace(/^\+/, '')) },
        data.version,
      )
      message.success(t('patientMessages.settingsSaved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const time = { pattern: timePattern, message: t('patientMessages.timeFormat') }
  const own = ownCallingCode(clinic?.phone)
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
        <Typography.Title level={5}>{t('patientMessages.codes.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('patientMessages.codes.hint')}</Typography.Paragraph>
        <Typography.Paragraph type={own ? undefined : 'warning'}>
          {own ? t('patientMessages.codes.ownCountry', { code: own }) : t('patientMessages.codes.ownCountryUnknown')}
        </Typography.Paragraph>
        <Form.Item
          name="sms_code_countries"
          label={t('patientMessages.codes.countries')}
          extra={t('patientMessages.codes.countriesHint')}
          rules={[{ validator: (_, v: string[] | undefined) => ((v ?? []).every((c) => callingCodePattern.test(c.trim())) ? Promise.resolve() : Promise.reject(new Error(t('patientMessages.codes.countriesFormat')))) }]}
        >
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ' ']} style={{ maxWidth: 360 }} placeholder="7, 44" />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="sms_codes_per_hour" label={t('patientMessages.codes.perHour')}>
            <InputNumber min={0} max={1000} precision={0} controls={false} inputMode="numeric" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="sms_codes_per_day" label={t('patientMessages.codes.perDay')}>
            <InputNumber min={0} max={10000} precision={0} controls={false} inputMode="numeric" style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
          {t('patientMessages.codes.capHint')}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit">
          {t('patientMessages.save')}
        </Button>
      </Form>
    </Card>
  )
}
