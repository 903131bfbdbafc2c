import { PlusOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Empty, Flex, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { focusFirstField } from '../../components/focusFirstField'
import { showFormErrors } from '../../lib/formErrors'
import { apiTokensKey } from '../../lib/queryKeys'
import { ScopeList } from './ApiBits'
import { registerSmartApp, revokeSmartApp, useSmartApps, type SmartApp } from './api/smartApps'

type SmartAppForm = { name: string; redirect_uris: string; launch_url: string; scopes: string }

/**
 * SMART apps (SMART App Launch): browser apps staff open from a patient's chart. Each is a public
 * client: it keeps no secret, is sent back only to the addresses registered here, and gets no
 * more than the scopes named here and the user's own access.
 */
export function SmartAppsCard({ fhirBase }: { fhirBase: string }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const queryClient = useQueryClient()
  const { data, isFetching } = useSmartApps()
  const [registering, setRegistering] = useState(false)
  const [form] = Form.useForm<SmartAppForm>()

  const register = async (v: SmartAppForm) => {
    try {
      const k = await registerSmartApp({ ...v, redirect_uris: v.redirect_uris.split(/\s+/).filter(Boolean) })
      setRegistering(false)
      message.success(t('smartApps.registered', { id: k.client_id }))
      void queryClient.invalidateQueries({ queryKey: apiTokensKey })
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const revoke = (k: SmartApp) =>
    modal.confirm({
      title: t('smartApps.revokeTitle', { name: k.name }),
      content: t('apiAccess.revokeHint'),
      okText: t('apiAccess.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        await revokeSmartApp(k.id)
        message.success(t('smartApps.revoked'))
        void queryClient.invalidateQueries({ queryKey: apiTokensKey })
      },
    })

  return (
    <Card title={t('smartApps.title')} style={{ marginTop: 16 }}>
      <Typography.Paragraph>{t('smartApps.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('smartApps.discovery')}{' '}
        <Typography.Text code copyable>
          {`${fhirBase}/.well-known/smart-configuration`}
        </Typography.Text>
      </Typography.Paragraph>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), setRegistering(true))}>
          {t('smartApps.new')}
        </Button>
      </Flex>
      <ScrollRegion label={t('smartApps.title')}>
        <Table<SmartApp>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={data?.data}
          pagination={false}
          style={{ minWidth: data?.data.length ? 760 : undefined }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('smartApps.empty')} /> }}
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
        title={t('smartApps.new')}
        onCancel={() => setRegistering(false)}
        onOk={() => form.submit()}
        okText={t('apiClients.register')}
        cancelText={t('accounts.cancel')}
        destroyOnHidden
        forceRender
      >
        <Form form={form} name="smartApp" layout="vertical" initialValues={{ scopes: 'patient/*.rs' }} onFinish={(v) => void register(v)} autoComplete="off">
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
        </Form>
      </Modal>
    </Card>
  )
}
