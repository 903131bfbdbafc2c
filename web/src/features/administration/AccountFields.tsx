import { Form, Input, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { useRoles } from './api/listRoles'

/** The fields an account is created and edited with: name, e-mail and roles. */
export function AccountFields() {
  const { t } = useTranslation()
  const roles = useRoles()
  return (
    <>
      <Form.Item name="name" label={t('accounts.fields.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="email" label={t('accounts.fields.email')}>
        <Input type="email" maxLength={254} />
      </Form.Item>
      <Form.Item name="roles" label={t('accounts.fields.roles')} rules={[{ required: true, message: t('accounts.rolesRequired') }]}>
        <Select mode="multiple" aria-label={t('accounts.fields.roles')} options={roles.data?.map((r) => ({ value: r.name, label: t(`roles.${r.name}`, { defaultValue: r.name }) }))} />
      </Form.Item>
    </>
  )
}
