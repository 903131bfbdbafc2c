import { PlusOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Card, Empty, Flex, Form, Modal, Space, Table, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { focusFirstField } from '../../components/focusFirstField'
import { TokenFields, tokenBody, type TokenFormValues } from '../../components/apiTokens/TokenFields'
import { TokenShownOnce } from '../../components/apiTokens/TokenShownOnce'
import { TokenState, stateOf } from '../../components/apiTokens/TokenState'
import { showFormErrors } from '../../lib/formErrors'
import { apiTokensKey } from '../../lib/queryKeys'
import { formatDayTime } from '../../lib/time'
import { createOwnApiToken } from './api/createOwnApiToken'
import { useOwnTokenReach } from './api/getOwnTokenReach'
import { useTwoFactorStatus } from './api/getTwoFactorStatus'
import { useOwnApiTokens } from './api/listOwnApiTokens'
import { revokeOwnApiToken } from './api/revokeOwnApiToken'
import type { ApiToken, CreatedApiToken } from './api/types'

/**
 * One's own API tokens on the profile: what each may do, when it ends (a notice for those
 * ending within 14 days), and — for one that ended — why: revoked, or a remedy of the account
 * (a password changed or reset, the second factor changed or reset, the account deactivated).
 * A token an administrator made for the account says who. Making one asks the password again,
 * and a code when the account has a second factor.
 */
export function ApiTokensCard({ userId }: { userId: number }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const queryClient = useQueryClient()
  const { data, isFetching } = useOwnApiTokens()
  const second = useTwoFactorStatus()
  const [creating, setCreating] = useState(false)
  const [made, setMade] = useState<CreatedApiToken | null>(null)
  const reach = useOwnTokenReach(creating)
  const [form] = Form.useForm<TokenFormValues>()
  const base = `${window.location.origin}/fhir/R4`
  const tokens = data?.data ?? []
  const expiring = tokens.filter((k) => stateOf(k) === 'expiring')

  const create = async (v: TokenFormValues) => {
    try {
      const created = await createOwnApiToken(tokenBody(v))
      setCreating(false)
      setMade(created)
      void queryClient.invalidateQueries({ queryKey: apiTokensKey })
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const revoke = (k: ApiToken) =>
    modal.confirm({
      title: t('myTokens.revokeTitle', { name: k.name }),
      content: t('apiAccess.revokeHint'),
      okText: t('apiAccess.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        await revokeOwnApiToken(k.id)
        message.success(t('apiAccess.revoked'))
        void queryClient.invalidateQueries({ queryKey: apiTokensKey })
      },
    })

  return (
    <Card title={t('myTokens.title')}>
      <Typography.Paragraph>{t('myTokens.intro')}</Typography.Paragraph>
      {expiring.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="expiring-notice"
          title={t('myTokens.expiring', { count: expiring.length, names: expiring.map((k) => `“${k.name}”`).join(', ') })}
        />
      )}
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), setCreating(true))}>
          {t('apiAccess.new')}
        </Button>
      </Flex>
      <ScrollRegion label={t('myTokens.title')}>
        <Table<ApiToken>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={tokens}
          pagination={false}
          style={{ minWidth: tokens.length ? 680 : undefined }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('apiAccess.empty')} /> }}
          columns={[
            {
              key: 'name',
              title: t('apiAccess.name'),
              render: (_, k) => (
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong>{k.name}</Typography.Text>
                  {k.created_by != null && k.created_by !== userId && (
                    <Typography.Text type="secondary" data-testid="made-by">
                      {t('apiAccess.madeBy', { name: k.created_by_name })}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            {
              key: 'scopes',
              title: t('apiAccess.scopes'),
              render: (_, k) =>
                k.scopes ? (
                  <Space wrap size={4}>
                    {k.scopes.split(' ').map((s) => (
                      <Typography.Text key={s} code>
                        {s}
                      </Typography.Text>
                    ))}
                  </Space>
                ) : (
                  <Typography.Text type="secondary">{t('apiAccess.wholeAccess')}</Typography.Text>
                ),
            },
            { key: 'expires', title: t('apiAccess.expires'), render: (_, k) => formatDayTime(k.expires_at) },
            { key: 'used', title: t('apiAccess.lastUsed'), render: (_, k) => (k.last_used_at ? formatDayTime(k.last_used_at) : t('apiAccess.never')) },
            { key: 'state', title: t('apiAccess.state'), render: (_, k) => <TokenState token={k} /> },
            {
              key: 'actions',
              title: <span className="visually-hidden">{t('apiAccess.actions')}</span>,
              render: (_, k) =>
                !k.revoked_at &&
                !k.expired && (
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
        open={creating}
        title={t('apiAccess.new')}
        onCancel={() => setCreating(false)}
        onOk={() => form.submit()}
        okText={t('apiAccess.create')}
        cancelText={t('accounts.cancel')}
        destroyOnHidden
        forceRender
      >
        <Form form={form} name="ownApiToken" layout="vertical" initialValues={{ expires_in_days: 90, scopes: [] }} onFinish={(v) => void create(v)} autoComplete="off">
          <TokenFields reach={reach.data?.data} loadingReach={reach.isFetching} secondFactor={!!second.data?.enabled} />
        </Form>
      </Modal>
      <TokenShownOnce made={made} base={base} onClose={() => setMade(null)} />
    </Card>
  )
}
