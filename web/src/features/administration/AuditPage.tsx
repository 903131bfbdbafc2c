import { DownloadOutlined, LeftOutlined, RightOutlined, VerticalRightOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Card, Checkbox, Flex, Form, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd'
import type { SortOrder } from 'antd/es/table/interface'
import type { Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PatientSelect } from '../../components/PatientSelect'
import { CredentialTag } from '../../components/apiTokens/CredentialTag'
import { auditEventsQuery, useAuditEvents } from './api/listAuditEvents'
import type { AuditEvent } from './api/types'
import { useCan } from '../../lib/auth/can'
import { chartPath } from '../../lib/patient'
import { formatDate } from '../../lib/time'
import styles from './AuditPage.module.css'
import { useClearable } from '../../components/clearable'
import { auditOutcomeLabel } from '../../lib/labels'
import { auditActionGroups, auditActionLabel, auditRecordLabel } from '../../lib/audit'
import auditActions from './auditActions.json'
import { DateRangeInput } from '../../components/DateInput'

interface Filters {
  user?: string
  patient_id?: number
  action?: string
  outcome?: string
  range?: [Dayjs | null, Dayjs | null] | null
  emergency?: boolean
  credential?: boolean
}

/**
 * Every action the product audits, for the action filter (labels under activity.*): the Go
 * architecture test checks that each action the server writes is here and labelled.
 */
const ACTIONS = auditActionGroups(auditActions)

const SORT_FIELD: Record<string, string> = { at: 'at', actor_name: 'user', action: 'action', entity: 'entity', patient: 'patient', outcome: 'outcome', address: 'address' }
const OUTCOME_COLOR = { success: 'green', failure: 'orange', denied: 'red' } as const

/** The query string of a filter, as the list and the export read it. */
function params(f: Filters, sort: string): Record<string, string | number | undefined> {
  return {
    user: f.user?.trim() || undefined,
    patient_id: f.patient_id,
    action: f.action,
    outcome: f.outcome,
    from: f.range?.[0]?.toISOString(),
    to: f.range?.[1]?.toISOString(),
    emergency: f.emergency ? 1 : undefined,
    credential: f.credential ? 1 : undefined,
    sort,
  }
}

/** The audit log (spec /administrator/audit): filter, sort any column, page by cursor, export CSV. */
export default function AuditLogPage() {
  const clear = useClearable()
  const { t, i18n } = useTranslation()
  const canViewPatients = useCan('view patient')
  const [form] = Form.useForm<Filters>()
  const [filters, setFilters] = useState<Filters>({})
  const [sort, setSort] = useState('-at')
  const [perPage, setPerPage] = useState(20)
  // The page's position: a cursor from the last answer, or none for the first page.
  const [position, setPosition] = useState<{ after?: string; before?: string }>({})
  const [pageNo, setPageNo] = useState(1)
  const query = { ...params(filters, sort), per_page: perPage, ...position }
  const page = useAuditEvents(query)
  const restart = () => {
    setPosition({})
    setPageNo(1)
  }
  const actionLabel = (a: string) => auditActionLabel(t, a)
  const actionOptions = (list: string[]) => list.map((a) => ({ value: a, label: `${actionLabel(a)} (${a})` }))
  const exportHref = `/api/audit-events/export?${new URLSearchParams(
    Object.entries(params(filters, sort)).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString()}`
  const order = (field: string): SortOrder => (sort === field ? 'ascend' : sort === `-${field}` ? 'descend' : null)
  const meta = page.data?.meta
  // The server counts on the first page only; later pages show that page's count, from the cache.
  const first = { ...params(filters, sort), per_page: perPage }
  const firstPage = useQuery({ ...auditEventsQuery(first), enabled: false })
  const counted = meta?.total != null ? meta : firstPage.data?.meta
  const total = counted?.total != null ? t(counted.total_capped ? 'audit.totalCapped' : 'audit.total', { count: counted.total }) : ''

  return (
    <Card title={t('route.auditLog')}>
      <Form
        form={form}
        layout="inline"
        className={styles.filters}
        onFinish={(v) => {
          setFilters(v)
          restart()
        }}
      >
        <Form.Item name="user" label={t('audit.user')}>
          <Input allowClear placeholder={t('audit.userPlaceholder')} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="patient_id" label={t('audit.patient')}>
          {canViewPatients ? (
            <PatientSelect ariaLabel={t('audit.patient')} placeholder={t('audit.patientPlaceholder')} style={{ width: 260 }} />
          ) : (
            <Input type="number" min={1} style={{ width: 120 }} />
          )}
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <Select
            allowClear={clear.select}
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 260 }}
            aria-label={t('audit.action')}
            options={[
              { label: t('audit.actionGroups.app'), options: actionOptions(ACTIONS.app) },
              { label: t('audit.actionGroups.fhir'), options: actionOptions(ACTIONS.fhir) },
            ]}
          />
        </Form.Item>
        <Form.Item name="outcome" label={t('audit.outcome')}>
          <Select
            allowClear={clear.select}
            style={{ width: 140 }}
            aria-label={t('audit.outcome')}
            options={(['success', 'failure', 'denied'] as const).map((o) => ({ value: o, label: t(auditOutcomeLabel[o]) }))}
          />
        </Form.Item>
        <Form.Item name="range" label={t('audit.time')}>
          <DateRangeInput withTime allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item name="emergency" valuePropName="checked">
          <Checkbox>{t('audit.emergencyOnly')}</Checkbox>
        </Form.Item>
        <Form.Item name="credential" valuePropName="checked">
          <Checkbox>{t('audit.credentialOnly')}</Checkbox>
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit">
            {t('audit.apply')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields()
              setFilters({})
              restart()
            }}
          >
            {t('audit.clear')}
          </Button>
          <Button icon={<DownloadOutlined aria-hidden />} href={exportHref} download data-testid="audit-export">
            {t('audit.export')}
          </Button>
        </Space>
      </Form>

      <Table<AuditEvent>
        rowKey="id"
        size="small"
        loading={page.isFetching}
        dataSource={page.data?.data ?? []}
        pagination={false}
        // The screen's width, the detail wrapping rather than cut off at 1366 px.
        scroll={{ x: true }}
        data-testid="audit-table"
        onChange={(_p, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter
          const field = SORT_FIELD[String(s.columnKey)]
          setSort(!s.order || !field ? '-at' : s.order === 'ascend' ? field : `-${field}`)
          restart()
        }}
        columns={[
          {
            key: 'at',
            title: t('audit.time'),
            sorter: true,
            sortOrder: order('at'),
            width: 170,
            render: (_, e) => <Typography.Text className={styles.mono}>{formatDate(e.at)}</Typography.Text>,
          },
          { key: 'actor_name', title: t('audit.user'), sorter: true, sortOrder: order('user'), width: 120, render: (_, e) => e.actor_name || '—' },
          {
            key: 'action',
            title: t('audit.action'),
            sorter: true,
            sortOrder: order('action'),
            width: 170,
            render: (_, e) => (
              <Space size={4} wrap>
                <Tooltip title={e.action}>{actionLabel(e.action)}</Tooltip>
                {e.emergency && <Tag color="red">{t('audit.emergency')}</Tag>}
                <CredentialTag credential={e.credential} />
              </Space>
            ),
          },
          {
            key: 'entity',
            title: t('audit.record'),
            sorter: true,
            sortOrder: order('entity'),
            width: 130,
            render: (_, e) => auditRecordLabel(t, e.entity_type, e.entity_id) || '—',
          },
          {
            key: 'patient',
            title: t('audit.patient'),
            sorter: true,
            sortOrder: order('patient'),
            width: 120,
            render: (_, e) => (e.patient_id && e.patient_mrn ? <Link to={chartPath({ id: e.patient_id, mrn: e.patient_mrn })}>{e.patient_mrn}</Link> : '—'),
          },
          {
            key: 'outcome',
            title: t('audit.outcome'),
            sorter: true,
            sortOrder: order('outcome'),
            width: 110,
            render: (_, e) => <Tag color={OUTCOME_COLOR[e.outcome]}>{t(auditOutcomeLabel[e.outcome])}</Tag>,
          },
          { key: 'address', title: t('audit.address'), sorter: true, sortOrder: order('address'), width: 130, render: (_, e) => e.address },
          { key: 'detail', title: t('audit.detail'), render: (_, e) => <span className={styles.detail}>{e.detail}</span> },
        ]}
      />

      <Flex justify="space-between" align="center" wrap gap={8} className={styles.pager}>
        <Typography.Text type="secondary" data-testid="audit-total">
          {total}
        </Typography.Text>
        <Space wrap>
          <Button icon={<VerticalRightOutlined aria-hidden />} disabled={!meta?.prev} onClick={restart} aria-label={t('audit.first')} />
          <Button
            icon={<LeftOutlined aria-hidden />}
            disabled={!meta?.prev}
            onClick={() => {
              setPosition({ before: meta?.prev })
              setPageNo((n) => Math.max(1, n - 1))
            }}
          >
            {t('audit.previous')}
          </Button>
          <Typography.Text>{t('audit.page', { page: pageNo.toLocaleString(i18n.language) })}</Typography.Text>
          <Button
            disabled={!meta?.next}
            onClick={() => {
              setPosition({ after: meta?.next })
              setPageNo((n) => n + 1)
            }}
            data-testid="audit-next"
          >
            {t('audit.next')} <RightOutlined aria-hidden />
          </Button>
          <Select
            value={perPage}
            aria-label={t('audit.perPage')}
            onChange={(n) => {
              setPerPage(n)
              restart()
            }}
            options={[10, 20, 30, 50].map((n) => ({ value: n, label: t('audit.perPageOption', { count: n }) }))}
          />
        </Space>
      </Flex>
    </Card>
  )
}
