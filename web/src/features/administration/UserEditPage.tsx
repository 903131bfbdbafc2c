import { KeyOutlined, UnlockOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Form, Modal, Result, Space, Spin, Switch, Typography } from 'antd'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { ApiError } from '../../lib/api'
import { showFormErrors } from '../../lib/formErrors'
import { AccountFields } from './AccountFields'
import { EmergencyCard } from './EmergencyCard'
import { useAccount, useAccountChanged, useRefreshAccount } from './api/getAccount'
import { resetPassword } from './api/resetPassword'
import { resetAccountTwoFactor } from './api/resetAccountTwoFactor'
import type { AccountInput } from './api/types'
import { unlockAccount } from './api/unlockAccount'
import { updateAccount } from './api/updateAccount'
import { RoleTags } from './RoleTags'
import { focusFirstField } from '../../components/focusFirstField'

/** One staff account (spec /administrator/users/edit/{id}): name, e-mail, roles, active; reset password; unlock; emergency access. */
export default function UserEditPage() {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const id = Number(useParams().id)
  const saved = useAccountChanged(id)
  const refreshAccount = useRefreshAccount(id)
  const { data: a, error, isLoading } = useAccount(id)
  const [form] = Form.useForm()
  const [temporary, setTemporary] = useState<string>()
  useEffect(() => {
    if (a) form.setFieldsValue({ name: a.name, email: a.email, roles: a.roles, active: a.active })
  }, [a, form])

  if (isLoading) return <Spin />
  if (error || !a) return <Result status="404" title={error instanceof ApiError ? error.message : t('accounts.notFound')} />

  const save = async (v: AccountInput) => {
    try {
      saved(await updateAccount(id, v, a.version))
      message.success(t('accounts.saved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const reset = () =>
    modal.confirm({
      title: t('accounts.resetTitle', { name: a.name }),
      content: t('accounts.resetHint'),
      okText: t('accounts.reset'),
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        const r = await resetPassword(id)
        setTemporary(r.temporary_password)
        refreshAccount()
      },
    })
  const resetTwoFactor = () =>
    modal.confirm({
      title: t('twoFactor.reset'),
      content: t('twoFactor.resetConfirm'),
      okText: t('twoFactor.reset'),
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        saved(await resetAccountTwoFactor(id))
        message.success(t('twoFactor.resetDone'))
      },
    })
  const unlock = async () => {
    saved(await unlockAccount(id))
    message.success(t('accounts.unlocked'))
  }

  return (
    <Card title={t('accounts.editTitle', { name: a.name })} style={{ maxWidth: 720 }}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text type="secondary">@{a.username}</Typography.Text>
          <RoleTags roles={a.roles} />
        </Space>
        {a.locked && (
          <Alert
            type="warning"
            showIcon
            title={t('accounts.lockedHint')}
            action={
              <Button size="small" icon={<UnlockOutlined aria-hidden />} onClick={() => void unlock()}>
                {t('accounts.unlock')}
              </Button>
            }
          />
        )}
        {a.must_change_password && <Alert type="info" showIcon title={t('accounts.mustChange')} />}
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <AccountFields />
          <Form.Item name="active" label={t('accounts.fields.active')} valuePropName="checked" extra={t('accounts.activeHint')}>
            <Switch aria-label={t('accounts.fields.active')} />
          </Form.Item>
          <Space wrap>
            <Button type="primary" htmlType="submit">
              {t('accounts.save')}
            </Button>
            <Button icon={<KeyOutlined aria-hidden />} onClick={reset}>
              {t('accounts.reset')}
            </Button>
            {a.two_factor && <Button onClick={resetTwoFactor}>{t('twoFactor.reset')}</Button>}
          </Space>
        </Form>
        {a.active && !a.roles.includes('admin') && <EmergencyCard account={a} onChange={saved} />}
      </Space>
      <Modal afterOpenChange={focusFirstField} open={!!temporary} title={t('accounts.temporaryTitle')} onOk={() => setTemporary(undefined)} onCancel={() => setTemporary(undefined)} cancelButtonProps={{ style: { display: 'none' } }}>
        <Typography.Paragraph>{t('accounts.temporaryHint')}</Typography.Paragraph>
        <Typography.Paragraph copyable code data-testid="temporary-password">
          {temporary}
        </Typography.Paragraph>
      </Modal>
    </Card>
  )
}
