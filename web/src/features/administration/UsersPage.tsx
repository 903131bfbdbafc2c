import { PlusOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Form, Input, Modal, Select, Space, Table, Tag } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { debounce } from '../../lib/debounce'
import { showFormErrors } from '../../lib/formErrors'
import { AccountFields } from './AccountFields'
import { createAccount } from './api/createAccount'
import { useAccounts, useRefreshAccounts, type AccountsParams } from './api/listAccounts'
import type { Account, NewAccount } from './api/types'
import { RoleTags } from './RoleTags'
import { focusFirstField } from '../../components/focusFirstField'
import { PasswordStrength } from '../../components/PasswordStrength'

/** Staff accounts (spec /administrator/users): search, filter by status, create. */
export default function UsersPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const refreshAccounts = useRefreshAccounts()
  const [q, setQ] = useState('')
  const [status, setStatus] = useState<AccountsParams['status']>('')
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(15)
  const [creating, setCreating] = useState(false)
  const [form] = Form.useForm()
  const [newPassword, newUsername, newName] = [Form.useWatch('password', form), Form.useWatch('username', form), Form.useWatch('name', form)] as (string | undefined)[]
  const setQuery = useMemo(() => debounce((v: string) => (setQ(v), setPage(1)), 250), [])
  const { data, isFetching } = useAccounts({ q, status, page, per_page: perPage })

  const create = async (v: NewAccount) => {
    try {
      const a = await createAccount(v)
      message.success(t('accounts.created'))
      setCreating(false)
      refreshAccounts()
      navigate(`/administrator/users/edit/${a.id}`)
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  return (
    <Card title={t('accounts.title')}>
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Input.Search allowClear placeholder={t('accounts.search')} aria-label={t('accounts.search')} onChange={(e) => setQuery(e.target.value)} style={{ width: 260 }} />
          <Select
            aria-label={t('accounts.status')}
            value={status}
            onChange={(v) => (setStatus(v), setPage(1))}
            style={{ width: 160 }}
            options={[
              { value: '', label: t('accounts.all') },
              { value: 'active', label: t('accounts.active') },
              { value: 'inactive', label: t('accounts.inactive') },
            ]}
          />
        </Space>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), setCreating(true))}>
          {t('accounts.new')}
        </Button>
      </Flex>
      {/* Scrolled sideways by its own box, which the keyboard can reach on a phone. */}
      <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('accounts.title')}>
        <Table<Account>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={data?.data}
          style={{ minWidth: 640 }}
          pagination={{ current: page, pageSize: perPage, total: data?.meta.total, showSizeChanger: true, pageSizeOptions: [10, 15, 20, 30, 50], onChange: (p, s) => (setPage(p), setPerPage(s)) }}
          columns={[
            { key: 'name', title: t('accounts.fields.name'), render: (_, a) => <Link to={`/administrator/users/edit/${a.id}`}>{a.name}</Link> },
            { key: 'username', dataIndex: 'username', title: t('accounts.fields.username') },
            { key: 'email', dataIndex: 'email', title: t('accounts.fields.email') },
            { key: 'roles', title: t('accounts.fields.roles'), render: (_, a) => <RoleTags roles={a.roles} /> },
            {
              key: 'status',
              title: t('accounts.status'),
              render: (_, a) => (
                <Space wrap size={4}>
                  {a.active ? <Tag color="green">{t('accounts.active')}</Tag> : <Tag>{t('accounts.inactive')}</Tag>}
                  {a.locked && <Tag color="orange">{t('accounts.locked')}</Tag>}
                  {a.two_factor ? <Tag color="blue">{t('accounts.twoFactorOn')}</Tag> : <Tag>{t('accounts.twoFactorOff')}</Tag>}
                  {a.emergency && <Tag color="red">{t('emergency.tag')}</Tag>}
                </Space>
              ),
            },
          ]}
        />
      </div>
      <Modal afterOpenChange={focusFirstField} open={creating} title={t('accounts.new')} onCancel={() => setCreating(false)} onOk={() => form.submit()} okText={t('accounts.create')} cancelText={t('accounts.cancel')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical" onFinish={(v) => void create(v)} autoComplete="off">
          <Form.Item name="username" label={t('accounts.fields.username')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
          <AccountFields />
          <Form.Item name="password" label={t('accounts.fields.password')} extra={<PasswordStrength password={newPassword} inputs={[newUsername ?? '', newName ?? '']} />} rules={[{ required: true, min: 12, message: t('profile.passwordPolicy') }]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  )
}
