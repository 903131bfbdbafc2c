import { Card, Form, Select, Space, Typography } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useClinic } from '../../lib/clinic'
import { debounce } from '../../lib/debounce'
import { formatDayTime } from '../../lib/time'
import { TokenFields, tokenBody, type TokenFormValues } from '../../components/apiTokens/TokenFields'
import { TokenShownOnce } from '../../components/apiTokens/TokenShownOnce'
import { TokenState, stateOf } from '../../components/apiTokens/TokenState'
import { LastUse, ScopeList } from '../../components/apiTokens/ApiBits'
import { BackendClientsCard } from './BackendClientsCard'
import { CredentialRegistry } from '../../components/apiTokens/CredentialRegistry'
import { SmartAppsCard } from './SmartAppsCard'
import { createApiToken } from './api/createApiToken'
import { useOwnTwoFactor } from './api/getOwnTwoFactor'
import { useTokenReach } from './api/getTokenReach'
import { useAccounts } from './api/listAccounts'
import { useApiTokens } from './api/listApiTokens'
import { revokeApiToken } from './api/revokeApiToken'
import type { ApiToken, CreatedApiToken } from './api/types'

/** The administrator's token form: the account it acts as, and the token's own fields. */
type AdminTokenForm = TokenFormValues & { user_id: number }

/**
 * Administrator → API access: the tokens with which other systems and the clinic's scripts
 * call the FHIR API and the native one. A token acts as its account, narrowed by its scopes;
 * it is shown once, when it is made, and revoked here at once.
 */
export default function ApiAccessPage() {
  const { t } = useTranslation()
  const { data, isFetching } = useApiTokens()
  const [creating, setCreating] = useState(false)
  const [made, setMade] = useState<CreatedApiToken | null>(null)
  const [accountQuery, setAccountQuery] = useState('')
  const searchAccounts = useMemo(() => debounce((v: string) => setAccountQuery(v), 250), [])
  const accounts = useAccounts({ q: accountQuery, status: 'active', page: 1, per_page: 50 })
  const [form] = Form.useForm<AdminTokenForm>()
  const account = Form.useWatch('user_id', form)
  const reach = useTokenReach(creating ? account : undefined)
  const second = useOwnTwoFactor()
  const { data: clinic } = useClinic()
  // The server answers under the clinic's public address when one is set (ADR 39).
  const base = `${clinic?.public_url || window.location.origin}/fhir/R4`

  const create = async (v: AdminTokenForm) => setMade(await createApiToken({ ...tokenBody(v), user_id: v.user_id }))

  return (
    <>
      <Card title={t('apiAccess.title')}>
        <Typography.Paragraph>{t('apiAccess.intro')}</Typography.Paragraph>
        <Typography.Paragraph>
          {t('apiAccess.fhirBase')}{' '}
          <Typography.Text code copyable>
            {base}
          </Typography.Text>
        </Typography.Paragraph>
        <CredentialRegistry<ApiToken, AdminTokenForm>
          label={t('apiAccess.tokens')}
          newLabel={t('apiAccess.new')}
          primary
          items={data?.data}
          loading={isFetching}
          empty={t('apiAccess.empty')}
          live={(k) => stateOf(k) === 'live' || stateOf(k) === 'expiring'}
          revokeTitle={(k) => t('apiAccess.revokeTitle', { name: k.name, account: k.user_name })}
          revoke={revokeApiToken}
          revoked={t('apiAccess.revoked')}
          form={form}
          formName="apiToken"
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
                  <Typography.Text type="secondary">
                    {k.user_name} ({k.username})
                  </Typography.Text>
                  {k.created_by != null && k.created_by !== k.user_id && <Typography.Text type="secondary">{t('apiAccess.madeBy', { name: k.created_by_name })}</Typography.Text>}
                </Space>
              ),
            },
            { key: 'scopes', title: t('apiAccess.scopes'), render: (_, k) => <ScopeList scopes={k.scopes} /> },
            { key: 'created', title: t('apiAccess.created'), render: (_, k) => formatDayTime(k.created_at) },
            { key: 'expires', title: t('apiAccess.expires'), render: (_, k) => formatDayTime(k.expires_at) },
            { key: 'used', title: t('apiAccess.lastUsed'), render: (_, k) => <LastUse at={k.last_used_at} address={k.last_used_address} /> },
            { key: 'state', title: t('apiAccess.state'), render: (_, k) => <TokenState token={k} /> },
          ]}
        >
          <Form.Item name="user_id" label={t('apiAccess.account')} extra={t('apiAccess.accountHint')} rules={[{ required: true, message: t('validation.required') }]}>
            <Select
              showSearch
              filterOption={false}
              onSearch={searchAccounts}
              onChange={() => form.setFieldValue('scopes', [])}
              loading={accounts.isFetching}
              options={accounts.data?.data.map((a) => ({ value: a.id, label: `${a.name} (${a.username})` }))}
            />
          </Form.Item>
          <TokenFields reach={reach.data?.data} loadingReach={reach.isFetching} secondFactor={!!second.data?.enabled} />
        </CredentialRegistry>
        <TokenShownOnce made={made} base={base} forAccount onClose={() => setMade(null)} />
      </Card>
      <BackendClientsCard tokenEndpoint={`${base}/auth/token`} noPublicAddress={clinic !== undefined && !clinic.public_url} />
      <SmartAppsCard fhirBase={base} />
    </>
  )
}
