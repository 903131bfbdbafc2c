import { Alert, App, Button, Card, Form, Input, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { confirmTwoFactor } from './api/confirmTwoFactor'
import { useRefreshTwoFactor, useTwoFactorStatus } from './api/getTwoFactorStatus'
import { setUpTwoFactor } from './api/setUpTwoFactor'
import { turnOffTwoFactor } from './api/turnOffTwoFactor'
import type { Enrolment } from './api/types'
import { RecoveryCodeActions } from './RecoveryCodeActions'

/**
 * Two-factor sign-in on one's own profile: set up with an authenticator app (QR code or the
 * secret typed in), confirmed with a first code, after which the ten recovery codes are shown
 * once; turned off with the password and a code.
 */
export function TwoFactorCard() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const refresh = useRefreshTwoFactor()
  const status = useTwoFactorStatus()
  const [enrolment, setEnrolment] = useState<Enrolment>()
  const [codes, setCodes] = useState<string[]>()
  const [turningOff, setTurningOff] = useState(false)
  const [confirmForm] = Form.useForm()
  const [offForm] = Form.useForm()

  const begin = async () => setEnrolment(await setUpTwoFactor())
  const confirm = async (v: { code: string }) => {
    try {
      const res = await confirmTwoFactor(v.code)
      setEnrolment(undefined)
      setCodes(res.recovery_codes)
      confirmForm.resetFields()
      await refresh()
    } catch (e) {
      showFormErrors(confirmForm, message, e)
    }
  }
  const turnOff = async (v: { password: string; code: string }) => {
    try {
      await turnOffTwoFactor(v)
      setTurningOff(false)
      offForm.resetFields()
      void message.success(t('twoFactor.turnedOff'))
      await refresh()
    } catch (e) {
      showFormErrors(offForm, message, e)
    }
  }

  const s = status.data
  return (
    <Card title={t('twoFactor.title')} loading={!s} data-testid="two-factor">
      {s && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <div>
            {s.enabled ? <Tag color="green">{t('twoFactor.on')}</Tag> : <Tag>{t('twoFactor.off')}</Tag>}
            {s.required && <Tag color="orange">{t('twoFactor.requiredByRole')}</Tag>}
          </div>
          {codes && (
            <Alert
              type="success"
              showIcon
              title={t('twoFactor.codesTitle')}
              description={
                <>
                  <Typography.Paragraph>{t('twoFactor.codesHint')}</Typography.Paragraph>
                  <pre data-testid="recovery-codes" style={{ fontSize: 15, lineHeight: 1.6 }}>
                    {codes.join('\n')}
                  </pre>
                  <RecoveryCodeActions codes={codes} />
                </>
              }
              closable={{ 'aria-label': t('app.icons.close') }}
              onClose={() => setCodes(undefined)}
            />
          )}
          {!s.enabled && !enrolment && (
            <>
              <Typography.Paragraph type="secondary">{t('twoFactor.intro')}</Typography.Paragraph>
              <Button type="primary" onClick={() => void begin()}>
                {t('twoFactor.setUp')}
              </Button>
            </>
          )}
          {enrolment && (
            <>
              <Typography.Paragraph>{t('twoFactor.scan')}</Typography.Paragraph>
              <img src={enrolment.qr} alt={t('twoFactor.qrAlt')} width={200} height={200} />
              <Typography.Paragraph>
                {t('twoFactor.orType')} <Typography.Text code copyable data-testid="totp-secret">{enrolment.secret}</Typography.Text>
              </Typography.Paragraph>
              <Form form={confirmForm} layout="vertical" onFinish={(v) => void confirm(v)}>
                <Form.Item name="code" label={t('twoFactor.firstCode')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
                  <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} style={{ maxWidth: 160 }} />
                </Form.Item>
                <Button type="primary" htmlType="submit">
                  {t('twoFactor.confirm')}
                </Button>
              </Form>
            </>
          )}
          {s.enabled && (
            <>
              <Typography.Text type="secondary">{t('twoFactor.codesLeft', { count: s.recovery_codes_left })}</Typography.Text>
              {!turningOff ? (
                <Button danger onClick={() => setTurningOff(true)}>
                  {t('twoFactor.turnOff')}
                </Button>
              ) : (
                <Form form={offForm} layout="vertical" onFinish={(v) => void turnOff(v)}>
                  <Form.Item name="password" label={t('profile.currentPassword')} rules={[{ required: true, message: t('validation.required') }]}>
                    <Input.Password autoComplete="current-password" />
                  </Form.Item>
                  <Form.Item name="code" label={t('login.code')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
                    <Input autoComplete="one-time-code" style={{ maxWidth: 200 }} />
                  </Form.Item>
                  <Space>
                    <Button danger htmlType="submit">
                      {t('twoFactor.turnOff')}
                    </Button>
                    <Button onClick={() => setTurningOff(false)}>{t('twoFactor.cancel')}</Button>
                  </Space>
                </Form>
              )}
            </>
          )}
        </Space>
      )}
    </Card>
  )
}
