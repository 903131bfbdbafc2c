import { Alert, Card, Form, Space, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TokenFields, tokenBody, type TokenFormValues } from '../../components/apiTokens/TokenFields'
import { TokenShownOnce } from '../../components/apiTokens/TokenShownOnce'
import { TokenState, stateOf } from '../../components/apiTokens/TokenState'
import { formatDayTime } from '../../lib/time'
import { ScopeList } from '../../components/apiTokens/ApiBits'
import { CredentialRegistry } from '../../components/apiTokens/CredentialRegistry'
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
  const { data, isFetching } = useOwnApiTokens()
  const second = useTwoFactorStatus()
  const [creating, setCreating] = useState(false)
  const [made, setMade] = useState<CreatedApiToken | null>(null)
  const reach = useOwnTokenReach(creating)
  const [form] = Form.useForm<TokenFormValues>()
  const base = `${window.location.origin}/fhir/R4`
  const tokens = data?.data ?? []
  const expiring = tokens.filter((k) => stateOf(k) === 'expiring')

  const create = async (v: TokenFormValues) => setMade(await createOwnApiToken(tokenBody(v)))

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
      <CredentialRegistry<ApiToken, TokenFormValues>
        label={t('myTokens.title')}
        newLabel={t('apiAccess.new')}
        items={tokens}
        loading={isFetching}
        empty={t('apiAccess.empty')}
        minWidth={680}
        live={(k) => !k.revoked_at && !k.expired}
        revokeTitle={(k) => t('myTokens.revokeTitle', { name: k.name })}
        revoke={revokeOwnApiToken}
        revoked={t('apiAccess.revoked')}
        form={form}
        formName="ownApiToken"
        formTitle={t('apiAccess.new')}
        okText={t('apiAccess.create')}
        initialValues={{ expires_in_days: 90, scopes: [] }}
        register={create}
        open={creating}
        onOpenChange={setCreating}
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
          { key: 'scopes', title: t('apiAccess.scopes'), render: (_, k) => <ScopeList scopes={k.scopes} /> },
          { key: 'expires', title: t('apiAccess.expires'), render: (_, k) => formatDayTime(k.expires_at) },
          { key: 'used', title: t('apiAccess.lastUsed'), render: (_, k) => (k.last_used_at ? formatDayTime(k.last_used_at) : t('apiAccess.never')) },
          { key: 'state', title: t('apiAccess.state'), render: (_, k) => <TokenState token={k} /> },
        ]}
      >
        <TokenFields reach={reach.data?.data} loadingReach={reach.isFetching} secondFactor={!!second.data?.enabled} />
      </CredentialRegistry>
      <TokenShownOnce made={made} base={base} onClose={() => setMade(null)} />
    </Card>
  )
}
