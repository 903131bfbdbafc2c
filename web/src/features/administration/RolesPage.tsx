import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Card, Checkbox, Flex, Form, Input, Modal, Space, Table, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../lib/api'
import { showFormErrors } from '../../lib/formErrors'
import { createRole } from './api/createRole'
import { deleteRole } from './api/deleteRole'
import { usePermissionCatalogue } from './api/listPermissions'
import { useRefreshRoles, useRolesMatrix } from './api/listRoles'
import { renameRole } from './api/renameRole'
import { setRoleTwoFactor } from './api/setRoleTwoFactor'
import { saveMatrix } from './api/saveMatrix'
import type { Role } from './api/types'
import { focusFirstField } from '../../components/focusFirstField'

const SEEDED = ['admin', 'doctor', 'nurse', 'receptionist']

/** Roles and their permissions (spec /administrator/roles): a matrix saved at once, custom roles created, renamed, deleted. */
export default function RolesPage() {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const refreshRoles = useRefreshRoles()
  const roles = useRolesMatrix()
  // Whether a role's members must use two-factor sign-in: saved at once (the server audits it).
  const requireTwoFactor = async (r: Role, required: boolean) => {
    await setRoleTwoFactor(r.id, required)
    refreshRoles()
  }
  const catalogue = usePermissionCatalogue()
  // The edited matrix (role name → permissions); undefined until something changes.
  const [edited, setEdited] = useState<Record<string, string[]>>()
  const [naming, setNaming] = useState<Role | 'new' | null>(null)
  const [form] = Form.useForm<{ name: string }>()
  const [saving, setSaving] = useState(false)

  const refresh = () => {
    setEdited(undefined)
    refreshRoles()
  }
  const matrix: Record<string, string[]> = edited ?? Object.fromEntries((roles.data?.data ?? []).map((r) => [r.name, r.permissions]))
  const toggle = (role: string, perm: string, on: boolean) => setEdited({ ...matrix, [role]: on ? [...matrix[role], perm] : matrix[role].filter((p) => p !== perm) })

  const save = async () => {
    if (!roles.data) return
    setSaving(true)
    try {
      const body = Object.fromEntries(Object.entries(matrix).filter(([r]) => r !== 'admin'))
      await saveMatrix(body, roles.data.version)
      message.success(t('rolesPage.saved'))
      refresh()
    } catch {
      // the app's error toast has said why (a stale matrix: reload and apply again)
    } finally {
      setSaving(false)
    }
  }

  const name = async (v: { name: string }) => {
    try {
      if (naming === 'new') await createRole(v.name)
      else if (naming) await renameRole(naming.id, v.name)
      setNaming(null)
      refresh()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  const remove = (r: Role) =>
    modal.confirm({
      title: t('rolesPage.deleteTitle', { name: r.name }),
      okText: t('rolesPage.delete'),
      okButtonProps: { danger: true },
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        try {
          await deleteRole(r.id)
          refresh()
        } catch (e) {
          if (!(e instanceof ApiError)) throw e
        }
      },
    })

  const list = roles.data?.data ?? []
  return (
    <Card title={t('rolesPage.title')}>
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('rolesPage.hint')}</Typography.Text>
        <Space wrap>
          <Link to="/permission/page">
            <Button icon={<EyeOutlined aria-hidden />}>{t('preview.button')}</Button>
          </Link>
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), setNaming('new'))}>
            {t('rolesPage.new')}
          </Button>
          <Button type="primary" disabled={!edited} loading={saving} onClick={() => void save()}>
            {t('rolesPage.save')}
          </Button>
        </Space>
      </Flex>
      {/* Scrolled by its own box: a table that scrolls itself copies the column headers (and their buttons) into a hidden measuring row. */}
      <div style={{ overflowX: 'auto' }}>
        <Table<string>
          rowKey={(p) => p}
          size="small"
          pagination={false}
          loading={roles.isLoading || catalogue.isLoading}
          dataSource={catalogue.data}
          columns={[
            { key: 'permission', title: t('rolesPage.permission'), render: (_, p) => t(`permissions.${p}`, { defaultValue: p }) },
            ...list.map((r) => ({
              key: r.name,
              align: 'center' as const,
              title: (
                <Space orientation="vertical" size={0} align="center">
                  <span>{t(`roles.${r.name}`, { defaultValue: r.name })}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('rolesPage.users', { count: r.users })}
                  </Typography.Text>
                  <Checkbox
                    checked={r.require_two_factor}
                    onChange={(e) => void requireTwoFactor(r, e.target.checked)}
                    aria-label={`${t(`roles.${r.name}`, { defaultValue: r.name })}: ${t('twoFactor.requireForRole')}`}
                    style={{ fontSize: 12 }}
                    data-testid={`require-2fa-${r.name}`}
                  >
                    {t('twoFactor.title')}
                  </Checkbox>
                  {!SEEDED.includes(r.name) && (
                    <Space size={0}>
                      <Button type="text" size="small" icon={<EditOutlined aria-hidden />} aria-label={t('rolesPage.rename', { name: r.name })} onClick={() => (form.setFieldsValue({ name: r.name }), setNaming(r))} />
                      <Button type="text" size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('rolesPage.deleteTitle', { name: r.name })} onClick={() => remove(r)} />
                    </Space>
                  )}
                </Space>
              ),
              render: (_: unknown, p: string) => (
                <Checkbox
                  aria-label={`${t(`roles.${r.name}`, { defaultValue: r.name })}: ${t(`permissions.${p}`, { defaultValue: p })}`}
                  checked={r.name === 'admin' || (matrix[r.name] ?? []).includes(p)}
                  disabled={r.name === 'admin'}
                  onChange={(e) => toggle(r.name, p, e.target.checked)}
                />
              ),
            })),
          ]}
        />
      </div>
      <Modal afterOpenChange={focusFirstField} open={naming !== null} title={naming === 'new' ? t('rolesPage.new') : t('rolesPage.rename', { name: naming?.name ?? '' })} onCancel={() => setNaming(null)} onOk={() => form.submit()} okText={t('rolesPage.save')} cancelText={t('accounts.cancel')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical" onFinish={(v) => void name(v)}>
          <Form.Item name="name" label={t('rolesPage.name')} extra={t('rolesPage.nameHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={40} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  )
}
