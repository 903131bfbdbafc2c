import { Alert, App, Button, Card, Checkbox, Form, InputNumber, Select, Spin, Switch, Typography } from 'antd'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { type CatalogueVaccine, useVaccineCatalogue } from './api/getVaccineCatalogue'
import { type ImmunisationSettings, useImmunisationSettings } from './api/immunisationSettings'
import { useSaveImmunisationSettings } from './api/saveImmunisationSettings'
import { ScheduleOrder } from './components/ScheduleOrder'

type Values = Omit<ImmunisationSettings, 'version'>

const CHANNELS = ['sms', 'email'] as const

/** What a search over the vaccines reads: the name, the CVX code, the key and the brands. */
const searchText = (v: CatalogueVaccine) => [v.name, v.cvx && `CVX ${v.cvx}`, v.key, ...Object.values(v.brands ?? {}).flat()].join(' ').toLocaleLowerCase()

/**
 * Administrator → Immunisations: the schedules the clinic follows and in which order (the first
 * decides each antigen it has, the next fill in those it lacks), the vaccines it stocks, the
 * parents' reminders of a dose due, and how old a child's weight may be for a dose by weight.
 * The whole settings are saved at the version read; a stale version says so and reads them again.
 */
export default function ImmunisationSettingsPage() {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const settings = useImmunisationSettings()
  const catalogue = useVaccineCatalogue()
  const saveSettings = useSaveImmunisationSettings()
  const [form] = Form.useForm<Values>()
  const [conflict, setConflict] = useState('')
  const data = settings.data
  useEffect(() => {
    if (data) form.setFieldsValue(data)
  }, [data, form])
  const vaccines = useMemo(
    () =>
      [...(catalogue.data?.vaccines ?? [])]
        .sort((a, b) => a.name.localeCompare(b.name, i18n.language))
        .map((v) => ({ value: v.key, label: v.cvx ? t('immunisationSettings.vaccineOption', { name: v.name, cvx: v.cvx }) : v.name, search: searchText(v) })),
    [catalogue.data, i18n.language, t],
  )
  if (settings.isError || catalogue.isError) return <Alert type="error" showIcon title={t('immunisationSettings.loadFailed')} />
  if (!data || !catalogue.data) return <Spin />

  const save = async (v: Values) => {
    setConflict('')
    try {
      await saveSettings({
        schedules: v.schedules ?? [],
        stocked: v.stocked ?? [],
        reminders: { on: Boolean(v.reminders?.on), days_before: v.reminders?.days_before, channels: v.reminders?.channels ?? [] },
        weight_max_age_days: v.weight_max_age_days,
        version: data.version,
      })
      message.success(t('immunisationSettings.saved'))
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (e.status === 409) {
        // Someone saved since this page read them: say so, and show what is stored now.
        setConflict(e.message)
        void settings.refetch()
        return
      }
      const fields = Object.entries(e.fields)
      // The server names a nested field with dots (reminders.days_before).
      form.setFields(fields.map(([name, errors]) => ({ name: name.split('.') as never, errors })))
      if (!fields.length) message.error(e.message)
    }
  }

  return (
    <Card title={t('immunisationSettings.title')} style={{ maxWidth: 760 }}>
      <Typography.Paragraph type="secondary">{t('immunisationSettings.hint')}</Typography.Paragraph>
      {conflict && <Alert type="warning" showIcon role="alert" style={{ marginBottom: 16 }} data-testid="immunisation-settings-conflict" title={conflict} />}
      <Form<Values> form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Typography.Title level={5}>{t('immunisationSettings.schedulesTitle')}</Typography.Title>
        <Typography.Paragraph id="immunisation-order-rule">{t('immunisationSettings.orderRule')}</Typography.Paragraph>
        <Form.Item
          name="schedules"
          label={<span id="immunisation-schedules-label">{t('immunisationSettings.schedules')}</span>}
          rules={[{ validator: (_, v: string[] | undefined) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('immunisationSettings.scheduleRequired')))) }]}
        >
          <ScheduleOrder schedules={catalogue.data.schedules} aria-labelledby="immunisation-schedules-label" describedBy="immunisation-order-rule" />
        </Form.Item>

        <Typography.Title level={5}>{t('immunisationSettings.stockTitle')}</Typography.Title>
        <Form.Item name="stocked" label={t('immunisationSettings.stocked')} extra={t('immunisationSettings.stockedHint')}>
          <Select
            mode="multiple"
            showSearch
            allowClear
            options={vaccines}
            filterOption={(input, option) => (option?.search ?? '').includes(input.trim().toLocaleLowerCase())}
            // A long name wraps on a narrow screen rather than losing its CVX code.
            optionRender={(option) => <div style={{ whiteSpace: 'normal' }}>{option.label}</div>}
            placeholder={t('immunisationSettings.stockedPlaceholder')}
            notFoundContent={t('immunisationSettings.noVaccine')}
          />
        </Form.Item>

        <Typography.Title level={5}>{t('immunisationSettings.remindersTitle')}</Typography.Title>
        <Form.Item name={['reminders', 'on']} label={t('immunisationSettings.remindersOn')} valuePropName="checked" extra={t('immunisationSettings.remindersHint')}>
          <Switch />
        </Form.Item>
        <Form.Item name={['reminders', 'days_before']} label={t('immunisationSettings.daysBefore')} extra={t('immunisationSettings.daysBeforeHint')}>
          {/* No min/max here: the server refuses a value outside its limits and says so under the field. */}
          <InputNumber precision={0} controls={false} inputMode="numeric" suffix={t('immunisationSettings.daysUnit')} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name={['reminders', 'channels']} label={t('immunisationSettings.channels')}>
          <Checkbox.Group options={CHANNELS.map((c) => ({ value: c, label: t(`immunisationSettings.channel.${c}`) }))} />
        </Form.Item>

        <Typography.Title level={5}>{t('immunisationSettings.weightTitle')}</Typography.Title>
        <Form.Item name="weight_max_age_days" label={t('immunisationSettings.weightMaxAge')} extra={t('immunisationSettings.weightMaxAgeHint')}>
          <InputNumber precision={0} controls={false} inputMode="numeric" suffix={t('immunisationSettings.daysUnit')} style={{ width: 160 }} />
        </Form.Item>

        <Button type="primary" htmlType="submit">
          {t('immunisationSettings.save')}
        </Button>
      </Form>
    </Card>
  )
}
