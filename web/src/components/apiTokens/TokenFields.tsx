import { Form, Input, Select, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Schema } from '../../lib/schema'

/** What a token for an account may be scoped to: FHIR types and the interactions its roles allow. */
export type ReachItem = Schema<'TokenReach'>['data'][number]

/** What the token form sends (scopes as chosen, joined before sending). */
export interface TokenFormValues {
  name: string
  scopes?: string[]
  expires_in_days: number
  current_password: string
  code?: string
}

export const LIFETIMES = [30, 90, 180, 365, 730]

const pick = (actions: string, letters: string) => [...letters].filter((l) => actions.includes(l)).join('')

/**
 * The scopes offered for a reach: reading (read and search) and writing (what of create,
 * update and delete the account may) each resource type the account reaches. None chosen is
 * the account's whole access.
 */
export function scopeOptions(reach: ReachItem[], t: (k: string, o?: Record<string, unknown>) => string) {
  return reach.flatMap((r) => {
    const read = pick(r.actions, 'rs')
    const write = pick(r.actions, 'cud')
    return [
      ...(read ? [{ value: `user/${r.resource}.${read}`, label: t('tokenForm.readScope', { resource: r.resource }) }] : []),
      ...(write ? [{ value: `user/${r.resource}.${write}`, label: t('tokenForm.writeScope', { resource: r.resource }) }] : []),
    ]
  })
}

/** The body a token is made with, from the form's values. */
export const tokenBody = (v: TokenFormValues) => ({
  name: v.name,
  scopes: (v.scopes ?? []).join(' '),
  expires_in_days: v.expires_in_days,
  current_password: v.current_password,
  ...(v.code ? { code: v.code.trim() } : {}),
})

/**
 * A token's fields: its name, the scopes the account's reach offers, its lifetime, and the
 * maker's own password again — with a code of their second factor when they have one
 * (making a token is a sensitive act: it outlives the session that makes it).
 */
export function TokenFields({ reach, loadingReach, secondFactor }: { reach?: ReachItem[]; loadingReach?: boolean; secondFactor: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      <Form.Item name="name" label={t('apiAccess.name')} extra={t('apiAccess.nameHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="scopes" label={t('apiAccess.scopes')} extra={t('tokenForm.scopesHint')}>
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          loading={loadingReach}
          placeholder={t('apiAccess.wholeAccess')}
          options={scopeOptions(reach ?? [], t)}
          optionRender={(o) => (
            <span>
              {o.label} <Typography.Text type="secondary" code>{String(o.value)}</Typography.Text>
            </span>
          )}
        />
      </Form.Item>
      <Form.Item name="expires_in_days" label={t('apiAccess.expiresIn')} extra={t('tokenForm.expiresHint')}>
        <Select options={LIFETIMES.map((d) => ({ value: d, label: t('apiAccess.days', { count: d }) }))} />
      </Form.Item>
      <Form.Item
        name="current_password"
        label={t('tokenForm.currentPassword')}
        extra={t('tokenForm.currentPasswordHint')}
        rules={[{ required: true, message: t('validation.required') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      {secondFactor && (
        <Form.Item name="code" label={t('tokenForm.code')} extra={t('tokenForm.codeHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
          <Input autoComplete="one-time-code" spellCheck={false} />
        </Form.Item>
      )}
    </>
  )
}
