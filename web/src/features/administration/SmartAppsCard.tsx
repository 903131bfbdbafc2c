import { App, Card, Form, Input, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScopeList } from '../../components/apiTokens/ApiBits'
import { CredentialRegistry } from '../../components/apiTokens/CredentialRegistry'
import { registerSmartApp } from './api/registerSmartApp'
import { revokeSmartApp } from './api/revokeSmartApp'
import { useSmartApps, type SmartApp } from './api/smartApps'

type SmartAppForm = { name: string; redirect_uris: string; launch_url: string; scopes: string }

/**
 * SMART apps (SMART App Launch): browser apps staff open from a patient's chart. Each is a public
 * client: it keeps no secret, is sent back only to the addresses registered here, and gets no
 * more than the scopes named here and the user's own access.
 */
export function SmartAppsCard({ fhirBase }: { fhirBase: string }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { data, isFetching } = useSmartApps()
  const [registering, setRegistering] = useState(false)
  const [form] = Form.useForm<SmartAppForm>()

  const register = async (v: SmartAppForm) => {
    const k = await registerSmartApp({ ...v, redirect_uris: v.redirect_uris.split(/\s+/).filter(Boolean) })
    message.success(t('smartApps.registered', { id: k.client_id }))
  }

  return (
    <Card title={t('smartApps.title')} style={{ marginTop: 16 }}>
      <Typography.Paragraph>{t('smartApps.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('smartApps.discovery')}{' '}
        <Typography.Text code copyable>
          {`${fhirBase}/.well-known/smart-configuration`}
        </Typography.Text>
      </Typography.Paragraph>
      <CredentialRegistry<SmartApp, SmartAppForm>
        label={t('smartApps.title')}
        newLabel={t('smartApps.new')}
        items={data?.data}
        loading={isFetching}
        empty={t('smartApps.empty')}
        minWidth={920}
        live={(k) => !k.revoked_at}
        revokeTitle={(k) => t('smartApps.revokeTitle', { name: k.name })}
        revoke={revokeSmartApp}
        revoked={t('smartApps.revoked')}
        form={form}
        formName="smartApp"
        formTitle={t('smartApps.new')}
        okText={t('apiClients.register')}
        initialValues={{ scopes: 'patient/*.rs' }}
        register={register}
        open={registering}
        onOpenChange={setRegistering}
        columns={[
          {
            key: 'name',
            title: t('apiAccess.name'),
            render: (_, k) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{k.name}</Typography.Text>
                <Typography.Text code copyable style={{ whiteSpace: 'nowrap' }}>
                  {k.client_id}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'addresses',
            title: t('smartApps.addresses'),
            render: (_, k) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text>{t('smartApps.launchAt', { url: k.launch_url })}</Typography.Text>
                {k.redirect_uris.map((u) => (
                  <Typography.Text key={u} type="secondary">
                    {u}
                  </Typography.Text>
                ))}
              </Space>
            ),
          },
          { key: 'scopes', title: t('apiAccess.scopes'), render: (_, k) => <ScopeList scopes={k.scopes} /> },
          {
            key: 'state',
            title: t('apiAccess.state'),
            render: (_, k) => <Tag color={k.revoked_at ? undefined : 'green'}>{t(k.revoked_at ? 'apiAccess.states.revoked' : 'apiAccess.states.live')}</Tag>,
          },
        ]}
      >
        <Form.Item name="name" label={t('apiAccess.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="launch_url" label={t('smartApps.launchUrl')} extra={t('smartApps.launchUrlHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input spellCheck={false} placeholder="https://app.example/launch.html" />
        </Form.Item>
        <Form.Item name="redirect_uris" label={t('smartApps.redirectUris')} extra={t('smartApps.redirectUrisHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input.TextArea rows={3} spellCheck={false} placeholder="https://app.example/index.html" />
        </Form.Item>
        <Form.Item name="scopes" label={t('apiAccess.scopes')} extra={t('smartApps.scopesHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input spellCheck={false} />
        </Form.Item>
      </CredentialRegistry>
    </Card>
  )
}
