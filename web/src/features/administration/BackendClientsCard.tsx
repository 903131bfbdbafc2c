import { WarningOutlined } from '@ant-design/icons'
import { Alert, App, Card, Form, Input, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { LastUse, ScopeList } from '../../components/apiTokens/ApiBits'
import { CredentialRegistry } from '../../components/apiTokens/CredentialRegistry'
import { useApiClients } from './api/listApiClients'
import { registerApiClient } from './api/registerApiClient'
import { revokeApiClient } from './api/revokeApiClient'
import type { ApiClient, ApiClientInput } from './api/types'

/**
 * Backend clients (SMART Backend Services): systems that call the FHIR API on their own,
 * proving themselves with a JWT signed by one of the keys registered here.
 */
export function BackendClientsCard({ tokenEndpoint, noPublicAddress }: { tokenEndpoint: string; noPublicAddress: boolean }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { data, isFetching } = useApiClients()
  const [registering, setRegistering] = useState(false)
  const [form] = Form.useForm<ApiClientInput>()

  const register = async (v: ApiClientInput) => {
    const k = await registerApiClient(v)
    message.success(t('apiClients.registered', { id: k.client_id }))
  }

  return (
    <Card title={t('apiClients.title')} style={{ marginTop: 16 }}>
      <Typography.Paragraph>{t('apiClients.intro')}</Typography.Paragraph>
      {noPublicAddress && (
        // The token endpoint checks each assertion's aud against the clinic's public address,
        // never the request's Host: without one it issues nothing.
        <Alert
          type="warning"
          showIcon
          data-testid="no-public-address"
          style={{ marginBottom: 12 }}
          title={t('apiClients.noPublicAddress')}
          description={
            // The alert's own text colour, underlined: the link colour on its yellow is below AA.
            <Link to="/administrator/clinic" style={{ color: 'inherit', textDecoration: 'underline' }}>
              {t('apiClients.setPublicAddress')}
            </Link>
          }
        />
      )}
      <Typography.Paragraph>
        {t('apiClients.tokenEndpoint')}{' '}
        <Typography.Text code copyable>
          {tokenEndpoint}
        </Typography.Text>
      </Typography.Paragraph>
      <CredentialRegistry<ApiClient, ApiClientInput>
        label={t('apiClients.title')}
        newLabel={t('apiClients.new')}
        items={data?.data}
        loading={isFetching}
        empty={t('apiClients.empty')}
        live={(k) => !k.revoked_at}
        revokeTitle={(k) => t('apiClients.revokeTitle', { name: k.name })}
        revoke={revokeApiClient}
        revoked={t('apiClients.revoked')}
        form={form}
        formName="apiClient"
        formTitle={t('apiClients.new')}
        okText={t('apiClients.register')}
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
                <Typography.Text code copyable>
                  {k.client_id}
                </Typography.Text>
                {k.created_by_name && <Typography.Text type="secondary">{t('apiClients.registeredBy', { name: k.created_by_name })}</Typography.Text>}
                {k.creator_deactivated && !k.revoked_at && (
                  <Typography.Text type="warning" data-testid="rotate-keys">
                    <WarningOutlined aria-hidden /> {t('apiClients.rotateKeys')}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          { key: 'scopes', title: t('apiAccess.scopes'), render: (_, k) => <ScopeList scopes={k.scopes} /> },
          { key: 'keys', title: t('apiClients.keys'), render: (_, k) => k.keys.join(', ') },
          { key: 'used', title: t('apiClients.lastToken'), render: (_, k) => <LastUse at={k.last_used_at} address={k.last_used_address} /> },
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
        <Form.Item name="scopes" label={t('apiAccess.scopes')} extra={t('apiClients.scopesHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input placeholder="system/Patient.rs system/Observation.rs" spellCheck={false} />
        </Form.Item>
        <Form.Item name="jwks" label={t('apiClients.jwks')} extra={t('apiClients.jwksHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input.TextArea rows={6} spellCheck={false} placeholder='{"keys": [{"kty": "EC", "crv": "P-384", "kid": "…", "x": "…", "y": "…"}]}' />
        </Form.Item>
      </CredentialRegistry>
    </Card>
  )
}
