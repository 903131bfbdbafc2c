// The patient register: search, the archived switch, a table of patients and its pager, on the
// light components (src/light; issue 58) inside the logged-in frame — no Ant Design on this
// screen. The address keeps the search (q, page, per_page, archived), so a link or a reload
// shows the same page. What is typed stays in the search field: the table does not re-render
// per keystroke, and its rows re-render only when their patient changes.
import { memo, useCallback, useEffect, useId, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { debounce } from '../../lib/debounce'
import { sexLabel } from '../../lib/labels'
import { formatDay } from '../../lib/time'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { PlusIcon, UserIcon } from '../../light/icons'
import { Pager } from '../../light/Pager'
import { SearchField } from '../../light/SearchField'
import { Switch } from '../../light/Switch'
import { Table, type Column } from '../../light/Table'
import { Tag } from '../../light/Tag'
import { formatAge } from '../../lib/age'
import { usePatients } from './api/listPatients'
import { chartPath, fullName, type PatientSummary } from './api/types'
import styles from './PatientListPage.module.css'

const PAGE_SIZES = [10, 15, 20, 30, 50]
const DEFAULT_PAGE_SIZE = 15

export default function PatientListPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const canManage = useCan('manage patient')
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const page = Math.max(1, Number(params.get('page')) || 1)
  const perPage = PAGE_SIZES.includes(Number(params.get('per_page'))) ? Number(params.get('per_page')) : DEFAULT_PAGE_SIZE
  const archived = params.get('archived') === '1'
  const list = usePatients({ q, page, per_page: perPage, archived })
  const headingId = useId()

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
  const search = useMemo(() => debounce((value: string) => update({ q: value.trim(), page: 1 }), 300), [update])
  const searchNow = useCallback(
    (value: string) => {
      search.cancel()
      update({ q: value.trim(), page: 1 })
    },
    [search, update],
  )

  const columns = useMemo<Column<PatientSummary>[]>(
    () => [
      { key: 'mrn', header: t('patients.mrn'), width: 130, cell: (p) => <Link to={chartPath(p)}>{p.mrn}</Link> },
      { key: 'name', header: t('patients.name'), cell: (p) => <NameCell patient={p} archivedTag={t('patients.archivedTag')} /> },
      { key: 'sex', header: t('patients.fields.sex'), width: 110, from: 'md', cell: (p) => t(sexLabel[p.sex]) },
      {
        key: 'birth_date',
        header: t('patients.fields.birth_date'),
        width: 170,
        from: 'sm',
        cell: (p) => `${formatDay(p.birth_date)} (${formatAge(p.birth_date)})`,
      },
      { key: 'phone', header: t('patients.fields.phone'), width: 170, from: 'lg', cell: (p) => p.phone },
      {
        key: 'actions',
        header: t('patients.actions'),
        width: 150,
        cell: (p) => (
          <span className={styles.actions}>
            <Link to={chartPath(p)}>{t('patients.openChart')}</Link>
            {canManage && !p.archived && <Link to={`/masterfile/patient_form/${p.id}`}>{t('patients.edit')}</Link>}
          </span>
        ),
      },
    ],
    [t, canManage],
  )

  const total = list.data?.meta.total ?? 0
  const totalText = list.data?.meta.total_exact === false ? t('patients.totalMore', { count: total }) : t('patients.total', { count: total })
  // A page past the last (an old link, the last patient of the last page archived) goes to the last.
  const pages = Math.max(1, Math.ceil(total / perPage))
  useEffect(() => {
    if (list.data && !list.isFetching && page > pages) update({ page: pages })
  }, [list.data, list.isFetching, page, pages, update])
  return (
    <Card
      title={t('patients.title')}
      titleId={headingId}
      extra={
        <>
          <SearchField label={t('patients.search')} placeholder={t('patients.searchPlaceholder')} defaultValue={q} onChange={search} onSearch={searchNow} />
          <Switch checked={archived} onChange={(v) => update({ archived: v ? 1 : undefined, page: 1 })}>
            {t('patients.showArchived')}
          </Switch>
          {canManage && (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => navigate('/masterfile/patient_form/new')}>
              {t('patients.new')}
            </Button>
          )}
        </>
      }
    >
      <Table<PatientSummary>
        columns={columns}
        rows={list.data?.data}
        rowKey={(p) => p.id}
        labelledBy={headingId}
        loading={list.isFetching}
        empty={t('patients.empty')}
      />
      {/* What a search found, said to a screen reader once the list has loaded (4.1.3). */}
      <p role="status" className="visually-hidden">
        {list.isFetching || !list.data ? '' : total > 0 ? totalText : t('patients.empty')}
      </p>
      {total > 0 && (
        <Pager
          page={page}
          pageSize={perPage}
          total={total}
          pageSizes={PAGE_SIZES}
          totalText={totalText}
          onChange={(p, size) => update({ page: size !== perPage ? 1 : p, per_page: size === DEFAULT_PAGE_SIZE ? undefined : size })}
        />
      )}
    </Card>
  )
}

/** The patient's name, with a plain avatar (no photo here: each one is an audited download; the chart shows it). */
const NameCell = memo(function NameCell({ patient, archivedTag }: { patient: PatientSummary; archivedTag: string }) {
  return (
    <span className={styles.name}>
      <span className={styles.avatar}>
        <UserIcon />
      </span>
      <Link to={chartPath(patient)}>{fullName(patient)}</Link>
      {patient.archived && <Tag>{archivedTag}</Tag>}
    </span>
  )
})
