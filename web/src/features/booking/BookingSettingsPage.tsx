import { App, Button, Card, Collapse, Form, Input, InputNumber, Space, Spin, Switch, Typography } from 'antd'
import { useEffect, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { useBookingSettings } from './api/booking'
import { useBookableDoctors } from './api/listBookableDoctors'
import { useSaveBookingSettings } from './api/saveBookingSettings'
import { breaksPattern, formPath, fromForm, toForm, type FormValues } from './rules'

const timePattern = /^$|^([01]\d|2[0-3]):[0-5]\d$/
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/** A list of whole days off (from, to, note). */
function DaysOffList({ name, label }: { name: (string | number)[]; label: string }) {
  const { t } = useTranslation()
  return (
    <Form.Item label={label}>
      <Form.List name={name}>
        {(fields, { add, remove }) => (
          <Space direction="vertical" style={{ width: '100%' }}>
            {fields.map((f) => (
              <Space key={f.key} wrap align="start">
                <Form.Item name={[f.name, 'from']} rules={[{ required: true, message: t('onlineBooking.dateRequired') }]} noStyle>
                  <Input type="date" aria-label={t('onlineBooking.from')} style={{ width: 160 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'to']} noStyle>
                  <Input type="date" aria-label={t('onlineBooking.to')} style={{ width: 160 }} />
                </Form.Item>
                <Form.Item name={[f.name, 'note']} noStyle>
                  <Input aria-label={t('onlineBooking.note')} placeholder={t('onlineBooking.note')} maxLength={200} style={{ width: 200 }} />
                </Form.Item>
                <Button onClick={() => remove(f.name)}>{t('onlineBooking.remove')}</Button>
              </Space>
            ))}
            <Button onClick={() => add({ from: '', to: '', note: '' })}>{t('onlineBooking.addDaysOff')}</Button>
          </Space>
        )}
      </Form.List>
    </Form.Item>
  )
}

/** The clinic's online booking: who takes bookings, for what, when; holidays; how far ahead and how soon. */
export default function BookingSettingsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveBookingSettings = useSaveBookingSettings()
  const { data } = useBookingSettings()
  const { data: doctors } = useBookableDoctors()
  const [form] = Form.useForm<FormValues>()
  const initial = useMemo(() => (data && doctors ? toForm(data, doctors) : undefined), [data, doctors])
  useEffect(() => {
    if (initial) form.setFieldsValue(initial)
  }, [initial, form])
  if (!data || !initial) return <Spin />
  const save = async () => {
    const v = form.getFieldsValue(true) as FormValues
    try {
      await saveBookingSettings(fromForm(v), data.version)
      message.success(t('onlineBooking.saved'))
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const fields = Object.entries(e.fields)
      form.setFields(fields.map(([name, errors]) => ({ name: formPath(name, v) as never, errors })))
      message.error(fields.length ? t('onlineBooking.checkFields') : e.message)
    }
  }
  const time = { pattern: timePattern, message: t('onlineBooking.timeFormat') }
  return (
    <Card title={t('onlineBooking.title')} style={{ maxWidth: 960 }}>
      <Typography.Paragraph type="secondary">{t('onlineBooking.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={initial} onFinish={() => void save()}>
        <Space wrap size="large">
          <Form.Item name="enabled" label={t('onlineBooking.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="auto_book" label={t('onlineBooking.autoBook')} valuePropName="checked" tooltip={t('onlineBooking.autoBookHint')}>
            <Switch />
          </Form.Item>
          <Form.Item name="ahead_days" label={t('onlineBooking.aheadDays')}>
            <InputNumber controls={false} min={1} max={365} precision={0} inputMode="numeric" suffix={t('onlineBooking.daysUnit')} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="notice_minutes" label={t('onlineBooking.notice')}>
            <InputNumber controls={false} min={0} max={20160} precision={0} inputMode="numeric" suffix={t('onlineBooking.minutesUnit')} style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Typography.Paragraph type="secondary">
          {t('onlineBooking.publicAddress')} <Typography.Text code>/book</Typography.Text>
        </Typography.Paragraph>
        <DaysOffList name={['holidays']} label={t('onlineBooking.holidays')} />
        <Typography.Title level={5}>{t('onlineBooking.doctors')}</Typography.Title>
        <Collapse
          items={initial.doctors.map((d, i) => ({
            key: d.doctor_id,
            label: d.name,
            forceRender: true,
            children: (
              <>
                <Space wrap size="large" align="start">
                  <Form.Item name={['doctors', i, 'enabled']} label={t('onlineBooking.takesBookings')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                  <Form.Item name={['doctors', i, 'specialty']} label={t('onlineBooking.specialty')}>
                    <Input maxLength={100} style={{ width: 220 }} />
                  </Form.Item>
                  <Form.Item name={['doctors', i, 'new_minutes']} label={t('onlineBooking.newSlot')} extra={t('onlineBooking.slotHint')}>
                    <InputNumber controls={false} min={0} max={240} precision={0} inputMode="numeric" suffix={t('onlineBooking.minutesUnit')} style={{ width: 160 }} />
                  </Form.Item>
                  <Form.Item name={['doctors', i, 'follow_up_minutes']} label={t('onlineBooking.followUpSlot')}>
                    <InputNumber controls={false} min={0} max={240} precision={0} inputMode="numeric" suffix={t('onlineBooking.minutesUnit')} style={{ width: 160 }} />
                  </Form.Item>
                </Space>
                <Typography.Text strong>{t('onlineBooking.week')}</Typography.Text>
                <Typography.Paragraph type="secondary">{t('onlineBooking.weekHint')}</Typography.Paragraph>
                {WEEKDAYS.map((w, day) => (
                  <Space key={w} wrap align="start" style={{ display: 'flex' }}>
                    <Typography.Text style={{ display: 'inline-block', width: 110, paddingTop: 4 }}>{t(`onlineBooking.day.${w}`)}</Typography.Text>
                    <Form.Item name={['doctors', i, 'week', day, 'open']} rules={[time]} style={{ marginBottom: 8 }}>
                      <Input aria-label={`${t(`onlineBooking.day.${w}`)}: ${t('onlineBooking.open')}`} placeholder={t('onlineBooking.open')} maxLength={5} inputMode="numeric" style={{ width: 110 }} />
                    </Form.Item>
                    <Form.Item name={['doctors', i, 'week', day, 'close']} rules={[time]} style={{ marginBottom: 8 }}>
                      <Input aria-label={`${t(`onlineBooking.day.${w}`)}: ${t('onlineBooking.close')}`} placeholder={t('onlineBooking.close')} maxLength={5} inputMode="numeric" style={{ width: 110 }} />
                    </Form.Item>
                    <Form.Item name={['doctors', i, 'week', day, 'breaks']} rules={[{ pattern: breaksPattern, message: t('onlineBooking.breaksFormat') }]} style={{ marginBottom: 8 }}>
                      <Input aria-label={`${t(`onlineBooking.day.${w}`)}: ${t('onlineBooking.breaks')}`} placeholder={t('onlineBooking.breaksPlaceholder')} style={{ width: 240 }} />
                    </Form.Item>
                  </Space>
                ))}
                <DaysOffList name={['doctors', i, 'days_off']} label={t('onlineBooking.daysOff')} />
              </>
            ),
          }))}
        />
        <Button type="primary" htmlType="submit" style={{ marginTop: 16 }}>
          {t('onlineBooking.save')}
        </Button>
      </Form>
    </Card>
  )
}
