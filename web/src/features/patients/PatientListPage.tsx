import { PlusOutlined, UserOutlined } from '@ant-design/icons'
import { Avatar, Button, Card, Empty, Flex, Input, Space, Switch, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { debounce } from '../../lib/debounce'
import { usePatients } from './api/listPatients'
import { chartPath, fullName, type PatientSummary } from './api/types'
import { ageInYears } from './age'
import { formatDay } from '../../lib/time'
import { sexLabel } from '../../lib/labels'

const PAGE_SIZES = [10, 15, 20, 30, 50]

export default function PatientListPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const canManage = useCan('manage patient')
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const perPage = PAGE_SIZES.includes(Number(params.get('per_page'))) ? Number(params.get('per_page')) : 15
  const archived = params.get('archived') === '1'
  const list = usePatients({ q, page, per_page: perPage, archived })

  const update = useCallback(
    (next: Record<string, string | number | undefined>) =>
      setParams(
      (prev) => {
        const p = new URLSearchParams(prev)
        for (const [k, v] of Object.entries(next)) {
          if (v === undefined || v === '' || (k === 'page' && v === 1)) p.delete(k)
          else p.set(k, String(v))
        }
        return p
      },
      { replace: true },
    ),
    [setParams],
  )
  const search = useCallback((value: string) => update({ q: value.trim(), page: 1 }), [update])

  // The columns, built once per language and permission: the table's rows re-render only when
  // its data or its page changes, never while someone types in the search box.
  const columns: ColumnsType<PatientSummary> = useMemo(() => [
    {
      title: t('patients.mrn'),
      dataIndex: 'mrn',
      width: 130,
      render: (mrn: string, p) => <Link to={chartPath(p)}>{mrn}</Link>,
    },
    {
      title: t('patients.name'),
      key: 'name',
      render: (_, p) => (
        <Space>
          {/* No photo here: each one is an audited download; the chart shows it. */}
          <Avatar size="small" icon={<UserOutlined aria-hidden />} alt="" />
          <Link to={chartPath(p)}>{fullName(p)}</Link>
          {p.archived && <Tag>{t('patients.archivedTag')}</Tag>}
        </Space>
      ),
    },
    { title: t('patients.fields.sex'), dataIndex: 'sex', width: 110, responsive: ['md'], render: (s: PatientSummary['sex']) => t(sexLabel[s]) },
    {
      title: t('patients.fields.birth_date'),
      dataIndex: 'birth_date',
      width: 170,
      responsive: ['sm'],
      render: (d: string) => `${formatDay(d)} (${t('patients.ageYears', { count: ageInYears(d) })})`,
    },
    { title: t('patients.fields.phone'), dataIndex: 'phone', width: 170, responsive: ['lg'] },
    {
      title: t('patients.actions'),
      key: 'actions',
      width: 150,
      render: (_, p) => (
        <Space size="small">
          <Link to={chartPath(p)}>{t('patients.openChart')}</Link>
          {canManage && !p.archived && <Link to={`/masterfile/patient_form/${p.id}`}>{t('patients.edit')}</Link>}
        </Space>
      ),
    },
  ], [t, canManage])
  const locale = useMemo(() => ({ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('patients.empty')} /> }), [t])

  const total = list.data?.meta.total ?? 0
  return (
    <Card>
      <Flex wrap gap={12} justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
          {t('patients.title')}
        </Typography.Title>
        <Flex wrap gap={12} align="center">
          <PatientSearch initial={q} onSearch={search} />
          <label style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
            <Switch size="small" checked={archived} onChange={(v) => update({ archived: v ? 1 : undefined, page: 1 })} />
            {t('patients.showArchived')}
          </label>
          {canManage && (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate('/masterfile/patient_form/new')}>
              {t('patients.new')}
            </Button>
          )}
        </Flex>
      </Flex>
      <Table<PatientSummary>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isFetching}
        locale={locale}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: perPage,
          total,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: () => (list.data?.meta.total_exact === false ? t('patients.totalMore', { count: total }) : t('patients.total', { count: total })),
          onChange: (p, size) => update({ page: size !== perPage ? 1 : p, per_page: size === 15 ? undefined : size }),
        }}
      />
    </Card>
  )
}

/**
 * The search box, its text kept here: a key re-renders the box alone, and the list (the page)
 * follows the search 300 ms after the last key, or at once on Enter.
 */
function PatientSearch({ initial, onSearch }: { initial: string; onSearch(value: string): void }) {
  const { t } = useTranslation()
  const [text, setText] = useState(initial)
  const search = useMemo(() => debounce(onSearch, 300), [onSearch])
  return (
    <Input.Search
      allowClear
      value={text}
      placeholder={t('patients.searchPlaceholder')}
      aria-label={t('patients.search')}
      onChange={(e) => {
        setText(e.target.value)
        search(e.target.value)
      }}
      onSearch={(v) => {
        search.cancel()
        onSearch(v)
      }}
      style={{ width: 320, maxWidth: '100%' }}
    />
  )
}
