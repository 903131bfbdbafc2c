import { PlusOutlined, WarningOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Card, Empty, Flex, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ScrollRegion } from '../../components/ScrollRegion'
import { focusFirstField } from '../../components/focusFirstField'
import { showFormErrors } from '../../lib/formErrors'
import { apiTokensKey } from '../../lib/queryKeys'
import { LastUse, ScopeList } from './ApiBits'
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
  const { message, modal } = App.useApp()
  const queryClient = useQueryClient()
  const { data, isFetching } = useApiClients()
  const [registering, setRegistering] = useState(false)
  const [form] = Form.useForm<ApiClientInput>()

  const register = async (v: ApiClientInput) => {
    try {
      const k = await registerApiClient(v)
      setRegistering(false)
      message.success(t('apiClients.registered', { id: k.client_id }))
      void queryClient.invalidateQueries({ queryKey: apiTokensKey })
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const revoke = (k: ApiClient) =>
    modal.confirm({
      title: t('apiClients.revokeTitle', { name: k.name }),
      content: t('apiAccess.revokeHint'),
      okText: t('apiAccess.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        await revokeApiClient(k.id)
        message.success(t('apiClients.revoked'))
        void queryClient.invalidateQueries({ queryKey: apiTokensKey })
      },
    })

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
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), setRegistering(true))}>
          {t('apiClients.new')}
        </Button>
      </Flex>
      <ScrollRegion label={t('apiClients.title')}>
        <Table<ApiClient>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={data?.data}
          pagination={false}
          style={{ minWidth: data?.data.length ? 760 : undefined }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('apiClients.empty')} /> }}
          columns={[
            {
              key: 'name',
              title: t('apiAccess.name'),
              render: (_, k) => (
                <Space direction="vertical" size={0}>
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
            {
              key: 'scopes',
              title: t('apiAccess.scopes'),
              render: (_, k) => <ScopeList scopes={k.scopes} />,
            },
            { key: 'keys', title: t('apiClients.keys'), render: (_, k) => k.keys.join(', ') },
            {
              key: 'used',
              title: t('apiClients.lastToken'),
              render: (_, k) => <LastUse at={k.last_used_at} address={k.last_used_address} />,
            },
            {
              key: 'state',
              title: t('apiAccess.state'),
              render: (_, k) => <Tag color={k.revoked_at ? undefined : 'green'}>{t(k.revoked_at ? 'apiAccess.states.revoked' : 'apiAccess.states.live')}</Tag>,
            },
            {
              key: 'actions',
              title: <span className="visually-hidden">{t('apiAccess.actions')}</span>,
              render: (_, k) =>
                !k.revoked_at && (
                  <Button size="small" danger onClick={() => revoke(k)} aria-label={t('apiAccess.revokeNamed', { name: k.name })}>
                    {t('apiAccess.revoke')}
                  </Button>
                ),
            },
          ]}
        />
      </ScrollRegion>
      <Modal
        afterOpenChange={focusFirstField}
        open={registering}
        title={t('apiClients.new')}
        onCancel={() => setRegistering(false)}
        onOk={() => form.submit()}
        okText={t('apiClients.register')}
        cancelText={t('accounts.cancel')}
        destroyOnHidden
        forceRender
      >
        <Form form={form} name="apiClient" layout="vertical" onFinish={(v) => void register(v)} autoComplete="off">
          <Form.Item name="name" label={t('apiAccess.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="scopes" label={t('apiAccess.scopes')} extra={t('apiClients.scopesHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input placeholder="system/Patient.rs system/Observation.rs" spellCheck={false} />
          </Form.Item>
          <Form.Item name="jwks" label={t('apiClients.jwks')} extra={t('apiClients.jwksHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input.TextArea rows={6} spellCheck={false} placeholder='{"keys": [{"kty": "EC", "crv": "P-384", "kid": "…", "x": "…", "y": "…"}]}' />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  )
}
