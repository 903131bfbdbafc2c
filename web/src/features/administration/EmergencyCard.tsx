import { AlertOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Checkbox, Form, Input, Select, Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { formatDayTime } from '../../lib/time'
import { endEmergency } from './api/endEmergency'
import { grantEmergency, type EmergencyGrant } from './api/grantEmergency'
import type { Account } from './api/types'

/** The clinical permissions an emergency grant may give (the server holds the same list). */
export const GRANTABLE = ['view patient', 'manage patient', 'view appointment', 'manage appointment', 'record vitals', 'write diagnosis', 'write prescription']
const HOURS = [1, 2, 4, 8, 12, 24]

/**
 * Emergency ("break-the-glass") access for one account: grant clinical permissions for a few
 * hours with a reason, or end the grant in force. Everything done under it is flagged.
 */
export function EmergencyCard({ account: a, onChange }: { account: Account; onChange: (a: Account) => void }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const [form] = Form.useForm<EmergencyGrant>()
  const g = a.emergency

  const grant = async (v: EmergencyGrant) => {
    try {
      onChange(await grantEmergency(a.id, v))
      form.resetFields()
      message.success(t('emergency.granted'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const end = () =>
    modal.confirm({
      title: t('emergency.endTitle', { name: a.name }),
      okText: t('emergency.end'),
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        onChange(await endEmergency(a.id))
        message.success(t('emergency.ended'))
      },
    })

  return (
    <Card
      size="small"
      data-testid="emergency-card"
      extra={
        g && (
          <Button danger size="small" onClick={end}>
            {t('emergency.end')}
          </Button>
        )
      }
      title={
        <Space>
          <AlertOutlined aria-hidden />
          {t('emergency.title')}
        </Space>
      }
    >
      {g ? (
        <Alert
          type="error"
          showIcon
          title={t('emergency.active', { until: formatDayTime(g.expires_at), by: g.granted_by })}
          description={
            <>
              <div>
                {t('emergency.reasonLabel')}: {g.reason}
              </div>
              <div>{g.permissions.map((p) => t(`permissions.${p}`, { defaultValue: p })).join(', ')}</div>
            </>
          }
        />
      ) : (
        <Form form={form} layout="vertical" initialValues={{ hours: 4, permissions: [] }} onFinish={(v) => void grant(v)}>
          <Typography.Paragraph type="secondary">{t('emergency.hint')}</Typography.Paragraph>
          {/* A custom rule rather than "required": Ant Design would put aria-required on the group, which a group may not carry. */}
          <Form.Item
            name="permissions"
            label={t('emergency.permissions')}
            rules={[{ validator: (_, v?: string[]) => (v?.length ? Promise.resolve() : Promise.reject(new Error(t('validation.required')))) }]}
          >
            <Checkbox.Group role="group" aria-label={t('emergency.permissions')} options={GRANTABLE.map((p) => ({ value: p, label: t(`permissions.${p}`) }))} />
          </Form.Item>
          <Form.Item name="hours" label={t('emergency.hours')}>
            <Select style={{ width: 160 }} options={HOURS.map((h) => ({ value: h, label: t('emergency.hoursOption', { count: h }) }))} />
          </Form.Item>
          <Form.Item name="reason" label={t('emergency.reason')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
          <Button danger htmlType="submit" icon={<AlertOutlined aria-hidden />}>
            {t('emergency.grant')}
          </Button>
        </Form>
      )}
    </Card>
  )
}
